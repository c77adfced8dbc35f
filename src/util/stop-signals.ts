import { monotonicMs } from './clock.js';
// signal-exit (in proper-lockfile, ora) re-sends a signal to the process when it counts no listener but its
// own: a repeat within REPEAT_MS is that same stop. A person's second Ctrl-C, or a runner's SIGTERM after its
// SIGINT, comes later.
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
