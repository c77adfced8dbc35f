// A wait's progress, and its plainest form: lines for a CI log (the CLI off a terminal, the Action's job log).
import { formatDuration } from '../../util/duration.js';

/** What a waiting command reports. Every method is safe to call in any state, more than once. */
export interface Progress {
  /** Starts showing that the command waits (`label`: "Waiting for claude…"), on a session when known. */
  start(label: string, subject?: { sessionId: string; url?: string }): Promise<void>;
  /** The latest thing the agent did, shown beside the label. */
  activity(text: string): void;
  stop(): void;
}

export interface LineOptions {
  /** Where the lines go (the CLI's stderr log, the Action's job log). */
  log: { info(line: string): void };
  /** Between heartbeat lines (default a minute). */
  heartbeatMs?: number;
}

/** For CI logs: the session and its address when the wait starts, then a heartbeat line every minute or so. */
export function lineProgress(o: LineOptions): Progress {
  let timer: NodeJS.Timeout | undefined;
  let latest = '';
  return {
    start(label, subject) {
      clearInterval(timer);
      latest = '';
      const started = Date.now();
      const about = subject
        ? ` on session ${subject.sessionId}${subject.url ? ` (${subject.url})` : ''}`
        : '';
      // The ellipsis escaped: esbuild escapes strings but not a regular expression, and one character
      // beyond Latin-1 makes V8 hold the whole chunk's source as two-byte text (scripts/build.mjs checks).
      o.log.info(`${label.replace(/\u2026$/, '')}${about}`);
      timer = setInterval(() => {
        const elapsed = formatDuration(Date.now() - started);
        o.log.info(`still waiting (${elapsed})${latest ? `; latest: ${latest}` : ''}`);
      }, o.heartbeatMs ?? 60_000);
      timer.unref();
      return Promise.resolve();
    },
    activity(t) {
      latest = t;
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
