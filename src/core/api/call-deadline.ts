// When a caller's signal runs out of time (--timeout, the library's `timeout`): the transport rides out an
// outage until then, where a call without one gives up sooner.
import { monotonicMs } from '../../util/clock.js';

/** Signals that end with a deadline → when (monotonicMs). */
const deadlines = new WeakMap<AbortSignal, number>();

/** `signal` ends by `timeoutMs` from now at the latest. */
export function markDeadline(signal: AbortSignal, timeoutMs: number): void {
  deadlines.set(signal, monotonicMs() + timeoutMs);
}

/** When `signal` runs out of time (monotonicMs); undefined when nothing but a person or a pipe ends it. */
export function deadlineOf(signal: AbortSignal | undefined): number | undefined {
  return signal === undefined ? undefined : deadlines.get(signal);
}

/** AbortSignal.any of `signals`, keeping the earliest deadline among them. */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  const joined = AbortSignal.any(signals);
  const times = signals.map((s) => deadlines.get(s)).filter((t) => t !== undefined);
  if (times.length > 0) deadlines.set(joined, Math.min(...times));
  return joined;
}
