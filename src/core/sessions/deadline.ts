// A command's deadline (--timeout) joined with the run's stop signal. It bounds the whole command, the
// create or send POST included, so a service that never answers cannot outlast --timeout.
import { formatDuration } from '../../util/duration.js';
import { afterIo } from '../../util/sleep.js';
import { TimeoutError } from '../errors/agents-error.js';
import { markDeadline } from '../api/call-deadline.js';

export interface Deadline {
  /** Aborts on the run's stop signal or when the time is up. */
  signal: AbortSignal;
  timeoutMs: number | undefined;
  /** The time ran out (as opposed to Ctrl-C or a closed pipe). */
  readonly expired: boolean;
  /** "after 20m", or '' without a time-out. */
  readonly after: string;
  dispose(): void;
}

/** A deadline `timeoutMs` from now, also ended by `stop`. After a stall of this process, what arrived
 * meanwhile is read first (afterIo): a 429 in hand would else be reported as "may have been created". */
export function startDeadline(stop: AbortSignal, timeoutMs: number | undefined): Deadline {
  const timer = new AbortController();
  const cancel =
    timeoutMs === undefined
      ? () => undefined
      : afterIo(timeoutMs, () => timer.abort(new DOMException('the time-out ran out', 'TimeoutError')));
  const signal = AbortSignal.any([stop, timer.signal]);
  // Every call made under it rides out an outage until then (api/transport.ts).
  if (timeoutMs !== undefined) markDeadline(signal, timeoutMs);
  return {
    signal,
    timeoutMs,
    get expired() {
      return timer.signal.aborted && !stop.aborted;
    },
    after: timeoutMs === undefined ? '' : ` after ${formatDuration(timeoutMs)}`,
    dispose: cancel,
  };
}

/** Runs a read under --timeout: a deadline that ran out is the contract's 124, naming what was being done. */
export async function withDeadline<T>(
  stop: AbortSignal,
  timeoutMs: number | undefined,
  what: string,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = startDeadline(stop, timeoutMs);
  try {
    return await run(deadline.signal);
  } catch (err) {
    if (!deadline.expired) throw err;
    const hint = 'the service or the network is slow; try again, or give a longer --timeout';
    throw new TimeoutError(`timed out${deadline.after} ${what}`, { hint, cause: err });
  } finally {
    deadline.dispose();
  }
}
