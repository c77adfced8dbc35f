// Progress while a command waits: a spinner with the elapsed time on an interactive terminal (ora, loaded
// only then); nothing anywhere else. Commands say what they wait for; this decides how it is shown.
import type { Ora } from 'ora';
import type { OutStream } from '../io.js';
import { formatDuration } from '../util/duration.js';
import { cut } from '../util/width.js';
import type { Stderr } from './stderr.js';
import type { TerminalCaps } from './terminal.js';

/** What a waiting command reports. Every method is safe to call in any state, more than once. */
export interface Progress {
  /** Starts showing that the command waits: `label` such as "Waiting for claude…". */
  start(label: string): Promise<void>;
  /** The latest thing the agent did, shown beside the label. */
  activity(text: string): void;
  stop(): void;
}

const NONE: Progress = { start: () => Promise.resolve(), activity: () => undefined, stop: () => undefined };

/** Options of a spinner's progress. */
export interface SpinnerOptions {
  stream: OutStream;
  stderr: Stderr;
  color: boolean;
  now?: () => number;
}

/** A spinner on stderr, its text updated every second with the elapsed time. */
export function spinnerProgress(o: SpinnerOptions): Progress {
  const now = o.now ?? Date.now;
  let spinner: Ora | undefined;
  let tick: NodeJS.Timeout | undefined;
  let label = '';
  let latest = '';
  let started = 0;
  const text = () => {
    const elapsed = formatDuration(now() - started);
    const full = `${label} ${elapsed}${latest ? ` · ${latest}` : ''}`;
    // One line: the latest activity is cut to the width (the spinner's frame and a space come first).
    const columns = o.stream.columns ?? 0;
    return columns > 2 ? cut(full, columns - 3) : full;
  };
  return {
    async start(l) {
      label = l;
      latest = '';
      started = now();
      if (spinner?.isSpinning) {
        spinner.text = text();
        return;
      }
      const { default: ora } = await import('ora');
      // discardStdin: false, or ora swallows the user's Ctrl-C handling and any piped input.
      spinner = ora({
        text: text(),
        stream: o.stream,
        discardStdin: false,
        color: o.color ? 'cyan' : false,
        isEnabled: true,
      }).start();
      o.stderr.attach(spinner);
      tick = setInterval(() => {
        if (spinner?.isSpinning) spinner.text = text();
      }, 1000);
      tick.unref();
    },
    activity(t) {
      latest = t;
      if (spinner?.isSpinning) spinner.text = text();
    },
    stop() {
      clearInterval(tick);
      tick = undefined;
      if (spinner?.isSpinning) spinner.stop();
      o.stderr.attach(undefined);
    },
  };
}

/** The progress this run shows. */
export function createProgress(caps: TerminalCaps, o: SpinnerOptions): Progress {
  return caps.spinner ? spinnerProgress(o) : NONE;
}
