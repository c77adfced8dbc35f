// The program's entry points. main(argv, io) runs one command line against the streams, environment and
// stop signal it is given, and resolves to the exit code; it never touches `process`, so tests run it
// in-process. run() is the only code that does: it builds the IO from the process, turns Ctrl-C, SIGTERM
// and a closed stdout into the stop signal, and sets the exit code.
import { fstatSync, statSync, writeSync } from 'node:fs';
import { CommanderError } from 'commander';
import { CliError, ExitCode, fromApiError } from './errors.js';
import type { IO, OutStream } from './io.js';
import type { Context, GlobalOptions } from './context.js';
import { buildProgram, type Runner } from './cli/program.js';
import { debugFromEnv } from './config/env.js';
import { escapeForLine } from './util/text.js';
import { watchStdoutReader } from './util/pipe-watch.js';
import { processSpawner } from './spawner.js';

/** Anything thrown, as the CliError the run ends with. */
function asCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof Error && err.name === 'ApiError') return fromApiError(err as never);
  const message = err instanceof Error ? err.message : String(err);
  return new CliError(message.split('\n')[0] ?? '', { cause: err });
}

/** Writes the error line (and hint) the run ends with; returns its exit code. */
function report(err: unknown, io: IO, debug: boolean): number {
  // The reader of stdout went away: nothing failed that anyone is there to hear about.
  if (io.signal.reason === 'EPIPE') return ExitCode.OK;
  const e = asCliError(err);
  if (e.silent) return e.exitCode;
  io.stderr.write(`error: ${escapeForLine(e.message)}\n`);
  if (e.hint) io.stderr.write(`hint: ${escapeForLine(e.hint)}\n`);
  if (debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  return e.exitCode;
}

/**
 * Runs one command line (`argv` without node and the script) and resolves to its exit code. Never throws.
 */
export async function main(argv: readonly string[], io: IO): Promise<number> {
  let ctx: Context | undefined;
  const runner: Runner = async (cmd, body) => {
    const { createContext } = await import('./context.js');
    ctx = await createContext(io, cmd.optsWithGlobals<GlobalOptions>());
    const result = await body(ctx);
    const { present } = await import('./output/presenter.js');
    await present(ctx, result);
  };
  const program = buildProgram(runner, {
    writeOut: (s) => void io.stdout.write(s),
    writeErr: (s) => void io.stderr.write(s),
    getOutHelpWidth: () => io.stdout.columns || 80,
    getErrHelpWidth: () => io.stderr.columns || 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
    // commander's own messages are one line starting with "error:"; its "(Did you mean …?)" suggestion
    // would be a second, unlabelled line, so it becomes the contract's `hint:` line.
    outputError: (str, write) => {
      const [, message = str, suggestion] = /^([\s\S]*?)(?:\n\(Did you mean (.+)\?\))?\n?$/.exec(str) ?? [];
      write(`${escapeForLine(message)}\n${suggestion ? `hint: did you mean ${suggestion}?\n` : ''}`);
    },
  });
  const debug = argv.includes('--debug') || debugFromEnv(io.env);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.OK;
  } catch (err) {
    ctx?.close();
    if (err instanceof CommanderError) {
      // help and version end with exit code 0; every other commander error is a usage error.
      return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    return report(err, io, debug);
  } finally {
    ctx?.close();
  }
}

/**
 * Whether descriptor `fd` may be a terminal: a terminal is a character device, so anything else (a pipe, a
 * file) is not, and neither is /dev/null (a CI job's stdin); that takes a stat or two instead of node:tty
 * (which loads node:net) or making the stream.
 */
function maybeTerminalFd(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    if (process.platform === 'win32') return true;
    const devNull = statSync('/dev/null');
    return st.rdev !== devNull.rdev || st.ino !== devNull.ino;
  } catch {
    return true;
  }
}

/**
 * process.stdout or process.stderr (made by `make`), made only when something needs more of it than
 * writing and whether it is a terminal: a spinner, a prompt, a terminal's width. Making one costs
 * milliseconds (Node's streams load, and node:net for a pipe), and most runs write to a pipe or a file, or
 * write only their help or the lines of a usage error: until then, writes go straight to the descriptor,
 * synchronously, as Node's own streams write to files, pipes and terminals. A descriptor that fails (a
 * closed pipe) or would block (a non-blocking pipe) gets the rest through the stream, which reports or
 * waits. Once the stream is made, `current()` is it.
 */
function lazyOutput(fd: 1 | 2, make: () => NodeJS.WriteStream): { current(): OutStream } {
  let stream: NodeJS.WriteStream | undefined;
  const made = () => (stream ??= make());
  let device: boolean | undefined;
  const maybeTerminal = () => (device ??= maybeTerminalFd(fd));
  function write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    if (stream !== undefined) return (stream.write as (...a: unknown[]) => boolean)(chunk, ...rest);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch {
      return made().write(bytes.subarray(done), ...(rest as [() => void]));
    }
    const callback = rest.find((r): r is () => void => typeof r === 'function');
    if (callback) process.nextTick(callback);
    return true;
  }
  const standIn = new Proxy({} as OutStream, {
    get(_, key) {
      if (key === 'write') return write;
      if ((key === 'isTTY' || key === 'columns' || key === 'rows') && !maybeTerminal()) return undefined;
      const value: unknown = Reflect.get(made(), key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(made()) : value;
    },
    set: (_, key, value) => Reflect.set(made(), key, value),
    has: (_, key) => Reflect.has(made(), key),
  });
  return { current: () => stream ?? standIn };
}

/** The process's IO, its stop signal wired to signals and stdout. Called once, by bin/agents.js. */
export async function run(): Promise<void> {
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
  const stdout = lazyOutput(1, () =>
    // `agents tail … | head -1`: a closed pipe ends the run quietly, not with a stack trace.
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      controller.abort('EPIPE');
    }),
  );
  const stderr = lazyOutput(2, () => process.stderr);
  // …and a reader that goes away while nothing is being written (a tail waiting on a quiet turn): see
  // pipe-watch.ts.
  const unwatch =
    process.platform === 'linux'
      ? watchStdoutReader(process.pid, () => controller.abort('EPIPE'))
      : () => undefined;
  const io: IO = {
    // Each stream is made on first use (see lazyOutput): a stdin nobody reads is never opened.
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return maybeTerminalFd(0) && process.getBuiltinModule('node:tty').isatty(0);
    },
    get stdout() {
      return stdout.current();
    },
    get stderr() {
      return stderr.current();
    },
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
  };
  const code = await main(process.argv.slice(2), io);
  unwatch();
  process.exitCode = code;
  // Whatever the run left (a keep-alive socket, a pending write to a closed pipe) must not keep it alive.
  if (controller.signal.aborted) process.exit(code);
}
