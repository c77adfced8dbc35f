// What a run of the program is given instead of `process` (gh's IOStreams): its streams, its environment,
// a signal that says stop, and a few facts about the runtime. main(argv, io) receives it; src/cli/main.ts builds
// the real one from `process`, tests build their own.
import type { RetryOptions } from '../api/backoff.js';
import type { PacingOptions } from '../budget/limiter.js';
import type { ScheduleOptions } from '../poll/schedule.js';

/** A readable the program may take a message or a key from. */
export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
  /** A terminal's: keys one at a time, unechoed, Ctrl-C as a key (agents chat reads its own keys). */
  setRawMode?(mode: boolean): unknown;
}

/** A writable the program prints to; a terminal reports its size. */
export interface OutStream extends NodeJS.WritableStream {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

/** The environment as the program reads it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Knobs tests turn so that waits and retries take milliseconds; nothing else sets them. */
export interface Tuning {
  retry?: Partial<RetryOptions>;
  schedule?: Partial<ScheduleOptions>;
  /** false: no pacing. */
  pacing?: PacingOptions | false;
  /** Between the heartbeat lines of a wait off a terminal (default a minute). */
  heartbeatMs?: number;
  /** How long a write of the state file waits for another process's lock (default 10 s). */
  lockWaitMs?: number;
  /** Between two readings of `agents budget --watch` (default a second). */
  watchMs?: number;
  /** How long a message read from a quiet standard input goes unmentioned on a terminal (default a second). */
  stdinNoticeMs?: number;
  /** How long the `notify` setting's program may run (default 10 s). */
  notifyTimeoutMs?: number;
  /** How long the system's keychain may take to answer before it counts as none (default 3 s). */
  keychainTimeoutMs?: number;
}

/**
 * Programs a run may start for the person at the terminal: the pager and the browser. bin/agents.js gets
 * the real ones (src/core/io/spawner.ts); a test passes its own to see what would be paged or opened.
 */
export interface Spawner {
  /**
   * Runs the pager `command` (a shell command line, as PAGER is) with `text` on its standard input and
   * the run's terminal as its output; resolves to its exit code once it ends (127: it was not found).
   */
  pager(command: string, text: string, env: Env): Promise<number | null>;
  /** Opens `url` in the user's browser; rejects when none could be started. */
  browser(url: string): Promise<void>;
  /**
   * Runs `file` with `args` (no shell) on the run's terminal (stdin, stdout and stderr its own), in `cwd`;
   * resolves to its exit code. `agents diff` runs git so, which then pages and colours as it does itself.
   */
  attached(file: string, args: readonly string[], o: { cwd?: string; env: Env }): Promise<number | null>;
}

/** Everything a run may touch. */
export interface IO {
  stdin: InStream;
  /**
   * Whether stdin is a terminal, when it can be told without making the stdin stream (run() asks the
   * OS: making process.stdin costs milliseconds even on /dev/null); otherwise `stdin.isTTY` says.
   */
  readonly stdinIsTTY?: boolean;
  stdout: OutStream;
  stderr: OutStream;
  env: Env;
  /**
   * Aborts when the run must stop: 'SIGINT' (Ctrl-C), 'SIGTERM', or 'EPIPE' (the reader of stdout went
   * away). Never aborted by the program itself.
   */
  signal: AbortSignal;
  /** Facts the program reports or bases paths on. */
  runtime: { nodeVersion: string; platform: NodeJS.Platform; homedir: string };
  /** Starts the pager and the browser; without it neither is started (the text is printed instead). */
  spawner?: Spawner;
  /**
   * The directory the run works in, for the commands that run git (checkout, diff): run() gives the
   * process's; without it, programs start in the process's own.
   */
  cwd?: string;
  tuning?: Tuning;
}
