import { monotonicMs } from './clock.js';
// SIGINT and SIGTERM as the run's stop: the first aborts the run, a second means "now". One signal can come
// twice: signal-exit (in proper-lockfile, ora) re-sends a signal to the process when it counts no listener but
// its own, so a repeat within REPEAT_MS of the first is that same stop, not a person or a runner insisting.

/** A person's second Ctrl-C, or a runner's SIGTERM after its SIGINT, comes later than this. */
const REPEAT_MS = 250;

/** Where the signals come from: the process (a test gives an emitter of its own). */
type SignalSource = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Calls `stop` on the first SIGINT or SIGTERM, and `now` on a later one; returns what removes both handlers. */
export function onStopSignals(
  stop: (sig: NodeJS.Signals) => void,
  now: () => void,
  { source = process, clock = monotonicMs }: { source?: SignalSource; clock?: () => number } = {},
): () => void {
  let first: number | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    const at = clock();
    if (first === undefined) {
      first = at;
      stop(sig);
    } else if (at - first > REPEAT_MS) now();
  };
  source.on('SIGINT', onSignal);
  source.on('SIGTERM', onSignal);
  return () => {
    source.off('SIGINT', onSignal);
    source.off('SIGTERM', onSignal);
  };
}
