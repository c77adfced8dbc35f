// The commander program: global flags, every command registered here, and each command's module
// imported only when that command runs, so `--help` and `--version` pay for commander alone.
import { Command, CommanderError, Option } from 'commander';
import { CliError, ExitCode } from './errors.js';
import { VERSION } from './version.js';
import type { Context, GlobalOptions } from './context.js';

const EXAMPLES = `
Examples:
  $ printf '%s' "$prompt" | agents create --agent claude --wait > answer.md
  $ id=$(agents create -a codex "Add a --verbose flag")
  $ agents send "$id" --wait --timeout 20m "Fix the failing test"
  $ agents tail last --until-final
  $ agents show last --all --json
  $ agents emulator --port 4010

Exit codes: 0 ok, 1 request failed, 2 usage error, 3 auth failure, 4 not found,
            124 --timeout ran out, 130 interrupted.
Docs: README.md, and the contract in cli-contract.md.`;

/** Runs a command's action with a fresh Context; the one place that builds it. */
async function withContext(cmd: Command, signal: AbortSignal, run: (ctx: Context) => Promise<void>) {
  const { createContext } = await import('./context.js');
  const ctx = await createContext({ globals: cmd.optsWithGlobals<GlobalOptions>(), signal });
  await run(ctx);
}

/** Builds the program. `signal` aborts on Ctrl-C / SIGTERM. Exported for in-process tests. */
export function buildProgram(signal: AbortSignal): Command {
  const program = new Command('agents')
    .description('Run conversations with software agents through the Agent Sessions API.')
    .version(`${VERSION}`, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--profile <name>', 'config profile to use (env AGENTS_PROFILE; default "default")')
    .option('--base-url <url>', 'service base URL, without /rest/v1 (env AGENTS_BASE_URL)')
    .option('--json', 'print JSON on stdout instead of text')
    .option('-q, --quiet', 'print nothing on stderr but errors')
    .option('--no-color', 'no colour (NO_COLOR and FORCE_COLOR are honoured too)')
    .option('--debug', 'trace each request and response on stderr, key redacted (env AGENTS_DEBUG=1)')
    .addHelpText('after', EXAMPLES)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // commander's own messages are already one line and start with "error:".
      outputError: (str, write) => write(str),
    });

  // ── Commands ── Each is registered here and imports its module only inside its action, e.g.
  //   program.command('x').description('…').option(…)
  //     .action((opts, cmd: Command) => withContext(cmd, signal, async (ctx) => {
  //       const { runX } = await import('./commands/x.js');
  //       …print what runX returns through ctx.out / ctx.log…
  //     }));
  // Validate option values with commander (Option#choices, argParser throwing InvalidArgumentError)
  // so bad values exit 2 before anything runs.
  // (configuration: config, login, logout)
  // (emulator)
  // (conversation: create, send, show, tail)
  void Option; // remove these two lines once the first command uses them
  void withContext;
  void signal;

  return program;
}

/** Prints a CliError (or anything else) as one `error:` line plus an optional hint; returns the exit code. */
export function reportError(
  err: unknown,
  debug: boolean,
  write = (s: string) => void process.stderr.write(s),
) {
  if (err instanceof CliError) {
    write(`error: ${err.message}\n`);
    if (err.hint) write(`hint: ${err.hint}\n`);
    if (debug && err.stack) write(`${err.stack}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  write(`error: ${message.split('\n')[0]}\n`);
  if (debug && err instanceof Error && err.stack) write(`${err.stack}\n`);
  return ExitCode.FAILURE;
}

/** Entry point used by bin/agents.js. Sets process.exitCode; never throws. */
export async function main(argv: string[]): Promise<void> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    interrupts += 1;
    // A second Ctrl-C means "now": do not wait for cleanup.
    if (interrupts > 1) process.exit(ExitCode.INTERRUPTED);
    controller.abort(sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `agents tail … | head -1`: a closed pipe ends the run quietly, not with a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.OK);
    throw err;
  });

  const debug = argv.includes('--debug') || /^(1|true|yes)$/i.test(process.env.AGENTS_DEBUG ?? '');
  try {
    await buildProgram(controller.signal).parseAsync(argv);
    process.exitCode = ExitCode.OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version end with exit code 0; every other commander error is a usage error.
      process.exitCode = err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    } else {
      process.exitCode = reportError(err, debug);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
