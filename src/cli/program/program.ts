// The commander program: the root (root.ts) and the commands. Each command's spec.ts declares it and loads
// its run.ts only when it runs, so help and usage errors pay for commander and the specs alone.
import type { Command, OutputConfiguration } from 'commander';
import type { CommandSpec, Runner } from '../commands/options/command-spec.js';
import { configSpec } from '../commands/config/spec.js';
import { loginSpec } from '../commands/login/spec.js';
import { logoutSpec } from '../commands/logout/spec.js';
import { emulatorSpec } from '../commands/emulator/spec.js';
import { createSpec } from '../commands/create/spec.js';
import { sendSpec } from '../commands/send/spec.js';
import { showSpec } from '../commands/show/spec.js';
import { tailSpec } from '../commands/tail/spec.js';
import { waitSpec } from '../commands/wait/spec.js';
import { chatSpec } from '../commands/chat/spec.js';
import { planSpec } from '../commands/plan/spec.js';
import { artifactSpec } from '../commands/artifact/spec.js';
import { lsSpec } from '../commands/ls/spec.js';
import { openSpec } from '../commands/open/spec.js';
import { boardSpec } from '../commands/board/spec.js';
import { checkoutSpec } from '../commands/checkout/spec.js';
import { diffSpec } from '../commands/diff/spec.js';
import { budgetSpec } from '../commands/budget/spec.js';
import { mcpSpec } from '../commands/mcp/spec.js';
import { acpSpec } from '../commands/acp/spec.js';
import { completionSpec } from '../commands/completion/spec.js';
import { helpSpec } from '../commands/help/spec.js';
import { answerUnknownCommand } from '../commands/options/commander-private.js';
import { rootCommand } from './root.js';

/** Every command by its name, in the order of `agents --help`. */
const COMMANDS: Record<string, CommandSpec> = {
  // configuration
  config: configSpec,
  login: loginSpec,
  logout: logoutSpec,
  emulator: emulatorSpec,
  // conversation
  create: createSpec,
  send: sendSpec,
  show: showSpec,
  tail: tailSpec,
  wait: waitSpec,
  chat: chatSpec,
  // plans and artifacts
  plan: planSpec,
  artifact: artifactSpec,
  // finding sessions again
  ls: lsSpec,
  open: openSpec,
  board: boardSpec,
  // after the agent: its pull request in this clone
  checkout: checkoutSpec,
  diff: diffSpec,
  // agents on this machine
  budget: budgetSpec,
  mcp: mcpSpec,
  acp: acpSpec,
  completion: completionSpec,
  help: helpSpec,
};

// Words people type for our commands (kubectl's `logs`, gh's `view`): commander's suggestions go by
// spelling alone and would offer `login` for `logs`.
const SYNONYMS: Record<string, string> = {
  logs: 'tail',
  log: 'tail',
  follow: 'tail',
  watch: 'tail',
  new: 'create',
  start: 'create',
  run: 'create',
  reply: 'send',
  message: 'send',
  view: 'show',
  get: 'show',
  cat: 'show',
  status: 'show',
};

/** The global options a line may give before its command: with their value in the next word, or alone. */
const VALUED_GLOBALS = new Set(['--profile', '--base-url']);
const FLAG_GLOBALS = new Set(['--json', '-q', '--quiet', '--no-color', '--debug']);

/** A line's command when it needs no other (`help`, `completion`, an unknown word's hint and `--help` do). */
function commandAlone(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (VALUED_GLOBALS.has(word)) i++;
    else if (/^--(profile|base-url)=/.test(word) || FLAG_GLOBALS.has(word)) continue;
    else if (word.startsWith('-')) return undefined;
    else return Object.hasOwn(COMMANDS, word) && word !== 'help' && word !== 'completion' ? word : undefined;
  }
  return undefined;
}

/** The program; given `argv`, a line that runs one command gets it alone (making all costs milliseconds). */
export function buildProgram(run: Runner, output: OutputConfiguration, argv?: readonly string[]): Command {
  const program = rootCommand(output);
  const alone = argv === undefined ? undefined : commandAlone(argv);
  for (const [name, spec] of Object.entries(COMMANDS))
    if (alone === undefined || name === alone) spec(program, run);
  // An unknown command that is one of our synonyms is answered with the command it means.
  answerUnknownCommand(program, (name) => {
    const synonym = Object.hasOwn(SYNONYMS, name) ? SYNONYMS[name] : undefined;
    if (synonym === undefined || !program.commands.some((c) => c.name() === synonym)) return undefined;
    return `error: unknown command '${name}'\n(Did you mean ${synonym}?)`;
  });
  return program;
}
