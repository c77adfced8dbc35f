// main(argv, io) runs one command line on the IO it is given, never on `process` (tests run it in-process);
// run(), bin/agents.js's, is the only code that touches it: the IO, the stop signal, the exit code.
import { CommanderError } from 'commander';
import { debugFromEnv, ExitCode, type IO, processSpawner, toCliError } from '../core/index.js';
import { buildProgram } from './program/program.js';
import type { Runner } from './commands/options/command-spec.js';
import { commanderExitCode, commanderOutput } from './program/commander-io.js';
import { escapeForLine } from '../util/text.js';
import { watchStdoutReader } from '../util/pipe-watch.js';
import { onStopSignals } from '../util/stop-signals.js';

/** Writes the error line (and hint) the run ends with; returns its exit code. */
function report(err: unknown, io: IO, debug: boolean): number {
  // The reader of stdout went away: nothing failed that anyone is there to hear about.
  if (io.signal.reason === 'EPIPE') return ExitCode.OK;
  const e = toCliError(err);
  if (e.silent) return e.exitCode;
  io.stderr.write(`error: ${escapeForLine(e.message)}\n`);
  if (e.hint) io.stderr.write(`hint: ${escapeForLine(e.hint)}\n`);
  if (debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  return e.exitCode;
}

/** Runs one command line (`argv` without node and the script) and resolves to its exit code. Never throws. */
export async function main(argv: readonly string[], io: IO): Promise<number> {
  const runner: Runner = async (cmd, load, body) => {
    const { runCommand } = await import('./run/run-command.js');
    await runCommand(io, cmd, load, body);
  };
  const program = buildProgram(runner, commanderOutput(io), argv);
  const debug = argv.includes('--debug') || debugFromEnv(io.env);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.OK;
  } catch (err) {
    if (err instanceof CommanderError) return commanderExitCode(err);
    return report(err, io, debug);
  }
}

/** The process's IO, its stop signal wired to signals and stdout. Called once, by bin/agents.js. */
export async function run(): Promise<void> {
  const controller = new AbortController();
  // A second Ctrl-C means "now": do not wait for cleanup.
  onStopSignals(
    (sig) => controller.abort(sig),
    () => process.exit(ExitCode.INTERRUPTED),
  );
  // `agents tail … | head -1`: a closed pipe ends the run quietly, not with a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    controller.abort('EPIPE');
  });
  // …and one that goes away while nothing is written (pipe-watch.ts), looked for on the event loop's first
  // turn: a run that ends in help or a usage error is over by then, and never pays for it (a few ms).
  let unwatch: () => void = () => undefined;
  const watching =
    process.platform === 'linux'
      ? setImmediate(() => (unwatch = watchStdoutReader(process.pid, () => controller.abort('EPIPE'))))
      : undefined;
  const io: IO = {
    // process.stdin is made when first read: a command that reads no message never opens it.
    get stdin() {
      return process.stdin;
    },
    // Asked of the descriptor, so that making stdin (milliseconds, even on /dev/null) is not the price.
    stdinIsTTY: process.getBuiltinModule('node:tty').isatty(0),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: controller.signal,
    runtime: {
      nodeVersion: process.version,
      platform: process.platform,
      // node:os only when asked for (getBuiltinModule: a static import would load it on every run).
      get homedir() {
        return process.getBuiltinModule('node:os').homedir();
      },
    },
    spawner: processSpawner(),
    cwd: process.cwd(),
  };
  const code = await main(process.argv.slice(2), io);
  clearImmediate(watching);
  unwatch();
  process.exitCode = code;
  // Whatever the run left (a keep-alive socket, a pending write to a closed pipe) must not keep it alive.
  if (controller.signal.aborted) process.exit(code);
}
