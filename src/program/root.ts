// The program's root: its global options and examples, and the list of commands `agents --help` shows.
// A line that asks for that help alone (`agents`, `agents --help`) gets the root with the commands' heads
// (src/commands/<name>/head.ts) in place of the commands: making the 21 commands, their hundred options,
// checks and help, was about two thirds of what `agents --help` cost above commander's own. The heads give
// the same list byte for byte (test/unit/root-help.test.ts); every other line gets the commands themselves
// (program.ts).
import { Command, type HelpConfiguration, type OutputConfiguration } from 'commander';
import { VERSION } from '../util/version.js';
import type { CommandHead } from '../commands/options/command-spec.js';
import { configHead } from '../commands/config/head.js';
import { loginHead } from '../commands/login/head.js';
import { logoutHead } from '../commands/logout/head.js';
import { emulatorHead } from '../commands/emulator/head.js';
import { createHead } from '../commands/create/head.js';
import { sendHead } from '../commands/send/head.js';
import { showHead } from '../commands/show/head.js';
import { tailHead } from '../commands/tail/head.js';
import { waitHead } from '../commands/wait/head.js';
import { chatHead } from '../commands/chat/head.js';
import { planHead } from '../commands/plan/head.js';
import { artifactHead } from '../commands/artifact/head.js';
import { lsHead } from '../commands/ls/head.js';
import { openHead } from '../commands/open/head.js';
import { checkoutHead } from '../commands/checkout/head.js';
import { diffHead } from '../commands/diff/head.js';
import { budgetHead } from '../commands/budget/head.js';
import { mcpHead } from '../commands/mcp/head.js';
import { acpHead } from '../commands/acp/head.js';
import { completionHead } from '../commands/completion/head.js';
import { helpHead } from '../commands/help/head.js';

/** Every command, in the order of `agents --help`. */
export const HEADS: readonly CommandHead[] = [
  // configuration
  configHead,
  loginHead,
  logoutHead,
  emulatorHead,
  // conversation
  createHead,
  sendHead,
  showHead,
  tailHead,
  waitHead,
  chatHead,
  // plans and artifacts
  planHead,
  artifactHead,
  // finding sessions again
  lsHead,
  openHead,
  // after the agent: its pull request in this clone
  checkoutHead,
  diffHead,
  // agents on this machine
  budgetHead,
  mcpHead,
  acpHead,
  completionHead,
  helpHead,
];

/** The global options a line may give before its command: with their value in the next word, or alone. */
const VALUED_GLOBALS = new Set(['--profile', '--base-url']);
const FLAG_GLOBALS = new Set(['--json', '-q', '--quiet', '--no-color', '--debug']);
const HELP_FLAGS = new Set(['-h', '--help']);

/** How many words the global option at `argv[i]` takes (itself, and its value if given apart), or 0. */
export function globalOptionWords(argv: readonly string[], i: number): number {
  const word = argv[i] ?? '';
  if (VALUED_GLOBALS.has(word)) return 2;
  return /^--(profile|base-url)=/.test(word) || FLAG_GLOBALS.has(word) ? 1 : 0;
}

/**
 * Whether the line's answer is the root help and nothing else: global options and `--help` (or nothing),
 * no command. (`agents` alone prints the same help, on stderr.)
 */
export function isRootHelp(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length;) {
    const words = globalOptionWords(argv, i) || (HELP_FLAGS.has(argv[i] ?? '') ? 1 : 0);
    if (words === 0) return false;
    i += words;
  }
  return true;
}

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

/** How the root's help is laid out: each command's help lists the global options too. */
const HELP: HelpConfiguration = { showGlobalOptions: true };

/**
 * The root command, without its commands: the global options and the help around the list of commands.
 * `output` is where commander writes help and its errors (set before any command is added, so every
 * command inherits it).
 */
export function rootCommand(output: OutputConfiguration): Command {
  return (
    new Command('agents')
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
      .configureHelp(HELP)
      .showSuggestionAfterError(true)
      // Our own `help [command]` (commands/help/spec.ts).
      .helpCommand(false)
  );
}

/**
 * The program for a line `isRootHelp` accepts: the root, and for each command a stand-in with its name and
 * description alone, listed with the synopsis of its head (commander's own term would say `[options]`
 * only for a command that has options, and the stand-ins have none).
 */
export function rootHelpProgram(output: OutputConfiguration): Command {
  const program = rootCommand(output);
  const synopses = new Map<Command, string>();
  for (const head of HEADS)
    synopses.set(program.command(head.name).description(head.description), head.synopsis);
  return program.configureHelp({
    ...HELP,
    subcommandTerm: (cmd) => [cmd.name(), synopses.get(cmd) ?? ''].filter(Boolean).join(' '),
  });
}
