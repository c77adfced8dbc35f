// The program's root: its global options and the help around the list of commands. The root help's own entry
// (src/cli/help.ts) lists stand-ins made from the heads the build reads: making the commands cost more.
import { Command, type HelpConfiguration, type OutputConfiguration } from 'commander';
import { VERSION } from '../../util/version.js';

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

/** Each command's help lists the global options too. */
const HELP: HelpConfiguration = { showGlobalOptions: true };

/** The root command, without its commands (`output` is set first, so that every command inherits it). */
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

/** What the root help lists of a command. */
export interface CommandHead {
  readonly name: string;
  /** `show [options] [session]`. */
  readonly term: string;
  readonly description: string;
}

/** The heads of the commands `program`'s help lists, in its order, as its help shows them. */
export function headsOf(program: Command): CommandHead[] {
  const help = program.createHelp();
  return help.visibleCommands(program).map((cmd) => ({
    name: cmd.name(),
    term: help.subcommandTerm(cmd),
    description: help.subcommandDescription(cmd),
  }));
}

/** The program for the root help alone: a stand-in for each head, listed with the head's term. */
export function rootHelpProgram(output: OutputConfiguration, heads: readonly CommandHead[]): Command {
  const program = rootCommand(output);
  const terms = new Map<Command, string>();
  for (const head of heads) terms.set(program.command(head.name).description(head.description), head.term);
  return program.configureHelp({ ...HELP, subcommandTerm: (cmd) => terms.get(cmd) ?? cmd.name() });
}
