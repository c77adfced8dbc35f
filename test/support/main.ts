// Runs the program in-process, as the built binary would run it, but through main(argv, io): its own
// streams (captured), its own environment, and a stop signal the test controls. HTTP still goes over a
// real socket to whatever server the environment names.
import { clearLine, cursorTo, moveCursor } from 'node:readline';
import { PassThrough, Writable } from 'node:stream';
import { homedir } from 'node:os';
import { main } from '../../src/cli/main.js';
import type { IO, Spawner, Tuning } from '../../src/core/io/io.js';
import { cliEnv, type CliResult } from './run-cli.js';

/**
 * Retries and polls in milliseconds, and no pacing: what most tests want. No ride through an outage of a
 * service that answered (outageBudgetMs 0: the retries' count bounds a call), so that a test of a service
 * that keeps failing counts its attempts; test/main/hostile/outage.test.ts turns it on.
 */
export const FAST_TUNING: Tuning = {
  retry: {
    baseDelayMs: 5,
    maxDelayMs: 40,
    maxRetryAfterMs: 2_000,
    rateLimitedBudgetMs: 3_000,
    outageBudgetMs: 0,
  },
  schedule: { minMs: 20, maxMs: 150, growth: 0.12, longQuietMs: 60_000, longMaxMs: 300, maxErrorMs: 400 },
  pacing: false,
};

/** The handle a test gets on a run in progress, shaped like a child process's where that helps. */
export interface RunHandle {
  /** Stops the run as that signal would: 'SIGINT' and 'SIGTERM' abort it; 'EPIPE' is a closed stdout. */
  kill(signal: 'SIGINT' | 'SIGTERM' | 'EPIPE'): void;
  stdin: PassThrough;
  /** stdout so far. */
  readonly stdout: string;
  readonly stderr: string;
}

export interface MainOptions {
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  input?: string | Buffer;
  /** Leave stdin open and idle, like a CI runner's. Default: closed with nothing in it. */
  idleStdin?: boolean;
  /** Which streams claim to be terminals, their width and height (default 80 by 40). */
  tty?: { stdin?: boolean; stdout?: boolean; stderr?: boolean; columns?: number; rows?: number };
  /** What starts the pager and the browser (default none: the program prints instead). */
  spawner?: Spawner;
  /** The run's working directory (where git runs); default the process's. */
  cwd?: string;
  tuning?: Tuning;
  /** Called once the run has started. */
  onStart?: (run: RunHandle) => void;
  /** Called with each write as it happens, so a test can see the order of stdout and stderr. */
  onWrite?: (to: 'out' | 'err', text: string) => void;
  /** Give up on a run that has not ended after this long (then `signal` is 'SIGKILL'). Default 20 s. */
  killAfterMs?: number;
}

class Capture extends Writable {
  private chunks: Buffer[] = [];
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  constructor(
    tty: boolean,
    columns: number | undefined,
    rows: number | undefined,
    private readonly onWrite?: (text: string) => void,
  ) {
    super();
    if (tty) {
      this.isTTY = true;
      this.columns = columns ?? 80;
      this.rows = rows ?? 40;
    }
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.chunks.push(bytes);
    this.onWrite?.(bytes.toString('utf8'));
    done();
  }
  // What a tty.WriteStream offers beyond writing, as escape sequences (ora draws the spinner with them).
  cursorTo(x: number, y?: number | (() => void), done?: () => void): boolean {
    return typeof y === 'function' ? cursorTo(this, x, undefined, y) : cursorTo(this, x, y, done);
  }
  moveCursor(dx: number, dy: number, done?: () => void): boolean {
    return moveCursor(this, dx, dy, done);
  }
  clearLine(dir: -1 | 0 | 1, done?: () => void): boolean {
    return clearLine(this, dir, done);
  }
  getWindowSize(): [number, number] {
    return [this.columns ?? 80, this.rows ?? 40];
  }
  hasColors(): boolean {
    return this.isTTY === true;
  }

  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** Runs `agents ARGS` in this process and collects what it printed and its exit code. */
export async function runMain(
  args: string[],
  o: MainOptions = {},
): Promise<CliResult & { stdoutBytes: Buffer }> {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (o.tty?.stdin) stdin.isTTY = true;
  const written = (to: 'out' | 'err') => (o.onWrite ? (text: string) => o.onWrite?.(to, text) : undefined);
  const stdout = new Capture(o.tty?.stdout === true, o.tty?.columns, o.tty?.rows, written('out'));
  const stderr = new Capture(o.tty?.stderr === true, o.tty?.columns, o.tty?.rows, written('err'));
  const controller = new AbortController();
  const io: IO = {
    stdin,
    stdout,
    stderr,
    env: o.env ?? cliEnv(),
    signal: controller.signal,
    runtime: { nodeVersion: process.version, platform: process.platform, homedir: homedir() },
    tuning: o.tuning ?? FAST_TUNING,
    ...(o.spawner ? { spawner: o.spawner } : {}),
    ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
  };
  if (o.input !== undefined) stdin.end(o.input);
  else if (!o.idleStdin) stdin.end();
  const handle: RunHandle = {
    kill: (signal) => controller.abort(signal),
    stdin,
    get stdout() {
      return stdout.text;
    },
    get stderr() {
      return stderr.text;
    },
  };
  const running = main(args, io);
  o.onStart?.(handle);
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<'killed'>((resolve) => {
    timer = setTimeout(() => resolve('killed'), o.killAfterMs ?? 90_000);
  });
  const outcome = await Promise.race([running, killed]);
  clearTimeout(timer);
  if (outcome === 'killed') {
    controller.abort('SIGTERM');
    return {
      code: null,
      signal: 'SIGKILL',
      stdout: stdout.text,
      stderr: stderr.text,
      stdoutBytes: stdout.bytes,
    };
  }
  return { code: outcome, signal: null, stdout: stdout.text, stderr: stderr.text, stdoutBytes: stdout.bytes };
}

/**
 * stderr without the lines a wait prints off a terminal (the start line naming the session, the heartbeats),
 * for tests about everything else on stderr.
 */
export function withoutProgress(stderr: string): string {
  return stderr
    .split(/(?<=\n)/)
    .filter(
      (l) =>
        !/^(Waiting for .+ on session [0-9a-f-]{36}( \(\S+\))?|still waiting \(.+\)(; latest: .*)?)\n$/.test(
          l,
        ),
    )
    .join('');
}

/** A Spawner that starts nothing and records what would have been paged, opened or run on the terminal. */
export class RecordingSpawner implements Spawner {
  readonly paged: { command: string; text: string; env: Record<string, string | undefined> }[] = [];
  readonly opened: string[] = [];
  readonly attachedRuns: { file: string; args: readonly string[]; cwd: string | undefined }[] = [];
  constructor(private readonly o: { pagerExit?: number | null; browserError?: Error } = {}) {}
  pager(command: string, text: string, env: Record<string, string | undefined>): Promise<number | null> {
    this.paged.push({ command, text, env });
    return Promise.resolve(this.o.pagerExit === undefined ? 0 : this.o.pagerExit);
  }
  attached(file: string, args: readonly string[], o: { cwd?: string }): Promise<number | null> {
    this.attachedRuns.push({ file, args, cwd: o.cwd });
    return Promise.resolve(0);
  }
  browser(url: string): Promise<void> {
    this.opened.push(url);
    return this.o.browserError ? Promise.reject(this.o.browserError) : Promise.resolve();
  }
}

/** A server run in this process (`agents mcp`, `agents acp`): its stdin and stdout are the client's pipes. */
export interface PipedRun {
  stdin: PassThrough;
  stdout: PassThrough;
  stderr: () => string;
  /** main's exit code. */
  done: Promise<number>;
}

/** Runs `agents ARGS` through main(argv, io) with open pipes for stdin and stdout, for a protocol client. */
export function runPiped(args: string[], env: NodeJS.ProcessEnv, tuning: Tuning = FAST_TUNING): PipedRun {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let stderr = '';
  const io: IO = {
    stdin,
    stdout,
    stderr: new Writable({
      write(chunk: Buffer, _enc, done) {
        stderr += chunk.toString('utf8');
        done();
      },
    }),
    env,
    signal: new AbortController().signal,
    runtime: { nodeVersion: process.version, platform: process.platform, homedir: homedir() },
    tuning,
  };
  return { stdin, stdout, stderr: () => stderr, done: main(args, io) };
}
