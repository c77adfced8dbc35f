// What a run is given instead of `process` (gh's IOStreams): main(argv, io) gets the real one, a test its own.
import type { RetryOptions } from '../api/backoff.js';
import type { PacingOptions } from '../budget/limiter.js';
import type { ScheduleOptions } from '../poll/schedule.js';

export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
  /** A terminal's: keys one at a time, unechoed, Ctrl-C as a key (agents chat reads its own keys). */
  setRawMode?(mode: boolean): unknown;
}

export interface OutStream extends NodeJS.WritableStream {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

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

/** Programs a run may start for the person at the terminal (spawner.ts; a test passes its own). */
export interface Spawner {
  /** Runs the pager `command` (a shell command line, as PAGER is) with `text` on its stdin; its exit code. */
  pager(command: string, text: string, env: Env): Promise<number | null>;
  /** Opens `url` in the user's browser; rejects when none could be started. */
  browser(url: string): Promise<void>;
  /** Runs `file` (no shell) on the run's terminal, in `cwd` (git, which then pages as it does); its exit code. */
  attached(file: string, args: readonly string[], o: { cwd?: string; env: Env }): Promise<number | null>;
}

export interface IO {
  stdin: InStream;
  /** Whether stdin is a terminal, told without making process.stdin (milliseconds even on /dev/null). */
  readonly stdinIsTTY?: boolean;
  stdout: OutStream;
  stderr: OutStream;
  env: Env;
  /** Aborts with 'SIGINT', 'SIGTERM' or 'EPIPE' (the reader of stdout went away); never by the program. */
  signal: AbortSignal;
  runtime: { nodeVersion: string; platform: NodeJS.Platform; homedir: string };
  /** Starts the pager and the browser; without it neither is started (the text is printed instead). */
  spawner?: Spawner;
  /** The directory git runs in (checkout, diff); without it, the process's own. */
  cwd?: string;
  tuning?: Tuning;
}
