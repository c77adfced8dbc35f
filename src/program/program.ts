// The commander program: the root (root.ts) and its commands. Each command's folder declares it
// (src/commands/<name>/spec.ts: its options, help and checks, in commander's own terms) and loads its
// run.ts only when it runs, so usage errors pay for commander and the specs alone. (The root help alone
// needs no command: root.ts.)
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
import { checkoutSpec } from '../commands/checkout/spec.js';
import { diffSpec } from '../commands/diff/spec.js';
import { budgetSpec } from '../commands/budget/spec.js';
import { mcpSpec } from '../commands/mcp/spec.js';
import { acpSpec } from '../commands/acp/spec.js';
import { completionSpec } from '../commands/completion/spec.js';
import { helpSpec } from '../commands/help/spec.js';
import { suggestSynonyms } from './synonyms.js';
import { globalOptionWords, HEADS, rootCommand } from './root.js';

export type { Runner } from '../commands/options/command-spec.js';

/** Every command by its name (root.ts's HEADS gives their order). */
const COMMANDS: Record<string, CommandSpec> = {
  config: configSpec,
  login: loginSpec,
  logout: logoutSpec,
  emulator: emulatorSpec,
  create: createSpec,
  send: sendSpec,
  show: showSpec,
  tail: tailSpec,
  wait: waitSpec,
  chat: chatSpec,
  plan: planSpec,
  artifact: artifactSpec,
  ls: lsSpec,
  open: openSpec,
  checkout: checkoutSpec,
  diff: diffSpec,
  budget: budgetSpec,
  mcp: mcpSpec,
  acp: acpSpec,
  completion: completionSpec,
  help: helpSpec,
};

/**
 * The command a command line runs, when it names one that needs no other: its first word after the global
 * options. `help` and `completion` read the whole tree; a word that names no command (a typo, a synonym)
 * needs every name for its hint; any other option first (`--help`, `-V`, one commander rejects) is
 * answered by the program, which lists every command.
 */
function commandAlone(argv: readonly string[]): string | undefined {
  let i = 0;
  while (i < argv.length && globalOptionWords(argv, i) > 0) i += globalOptionWords(argv, i);
  const word = argv[i];
  if (word === undefined || word.startsWith('-')) return undefined;
  return Object.hasOwn(COMMANDS, word) && word !== 'help' && word !== 'completion' ? word : undefined;
}

/**
 * Builds the program. `run` gives each action its Context and prints what it returns; `output` is where
 * commander writes help and its errors. Given the command line, a line that runs one command gets that
 * command alone: parsing it, its help and its errors read nothing of the others, and making the other 20
 * (their options, checks and help) was a few milliseconds of every run. Without it (the docs, the tests of
 * the tree), every command. (main() answers the root help alone without this module: root.ts.)
 */
export function buildProgram(run: Runner, output: OutputConfiguration, argv?: readonly string[]): Command {
  const program = rootCommand(output);
  suggestSynonyms(program);
  const alone = argv === undefined ? undefined : commandAlone(argv);
  for (const { name } of HEADS) if (alone === undefined || name === alone) COMMANDS[name]?.(program, run);
  return program;
}
