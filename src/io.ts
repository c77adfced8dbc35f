// What a run of the program is given instead of `process` (gh's IOStreams): its streams, its environment,
// a signal that says stop, and a few facts about the runtime. main(argv, io) receives it; src/cli.ts builds
// the real one from `process`, tests build their own.
import type { RetryOptions } from './api/backoff.js';
import type { PacingOptions } from './api/pacing.js';
import type { ScheduleOptions } from './poll/schedule.js';

/** A readable the program may take a message or a key from. */
export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
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
  tuning?: Tuning;
}
