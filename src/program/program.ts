// The commander program: the global options and the list of commands. Each command's folder declares it
// (src/commands/<name>/spec.ts: its options, help and checks, in commander's own terms) and loads its
// run.ts only when it runs, so --help and usage errors pay for commander and the specs alone.
import { Command, type OutputConfiguration } from 'commander';
import { VERSION } from '../util/version.js';
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

export type { Runner } from '../commands/options/command-spec.js';

/** Every command, in the order of `agents --help`. */
const COMMANDS: CommandSpec[] = [
  // configuration
  configSpec,
  loginSpec,
  logoutSpec,
  emulatorSpec,
  // conversation
  createSpec,
  sendSpec,
  showSpec,
  tailSpec,
  waitSpec,
  chatSpec,
  // plans and artifacts
  planSpec,
  artifactSpec,
  // finding sessions again
  lsSpec,
  openSpec,
  // after the agent: its pull request in this clone
  checkoutSpec,
  diffSpec,
  // agents on this machine
  budgetSpec,
  mcpSpec,
  acpSpec,
  completionSpec,
  helpSpec,
];

const EXAMPLES = `
Examples:
  $ printf '%s' "$prompt" | agents create --agent claude --wait > answer.md
  $ id=$(agents create -a codex "Add a --verbose flag")
  $ agents send "$id" --wait --timeout 20m "Fix the failing test"
  $ agents tail last --until-final
  $ agents chat -a claude
  $ for t in tasks/*.md; do agents create -a claude --file "$t"; done | agents wait --output-dir replies/
  $ agents show last --all --json
  $ agents ls
  $ agents emulator --port 4010

Exit codes: 0 ok, 1 request failed, 2 usage error, 3 auth failure, 4 not found,
            5 answer did not match --output-schema, 124 --timeout ran out, 130 interrupted.
Docs: \`man agents\` (every command and option), and \`agents <command> --help\`.`;

/**
 * Builds the program. `run` gives each action its Context and prints what it returns; `output` is where
 * commander writes help and its errors (set before any command is added, so every command inherits it).
 */
export function buildProgram(run: Runner, output: OutputConfiguration): Command {
  const program = new Command('agents')
    .exitOverride()
    .configureOutput(output)
    .description('Run conversations with software agents through the Agent Sessions API.')
    .version(`${VERSION}`, '-V, --version', 'print the version (of the npm package agents-cli)')
    .helpOption('-h, --help', 'show help')
    .option('--profile <name>', 'config profile to use (env AGENTS_PROFILE; default "default")')
    .option('--base-url <url>', 'service base URL, without /rest/v1 (env AGENTS_BASE_URL)')
    .option('--json', 'print JSON on stdout instead of text')
    .option('-q, --quiet', 'print nothing on stderr but errors')
    .option('--no-color', 'no colour (NO_COLOR and FORCE_COLOR are honoured too)')
    .option('--debug', 'trace each request and response on stderr, key redacted (env AGENTS_DEBUG=1)')
    .addHelpText('after', EXAMPLES)
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    // Our own `help [command]` (commands/help/spec.ts).
    .helpCommand(false);
  suggestSynonyms(program);
  for (const spec of COMMANDS) spec(program, run);
  return program;
}
