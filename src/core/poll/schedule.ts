// When to poll next: fast at first (replies are usually quick), slower through a long turn and after a minute
// of quiet, back to fast as soon as messages flow; jittered, so clients started together are not in lockstep.

/** Tunables of the poll schedule, in milliseconds. */
export interface ScheduleOptions {
  /** First gap, and the gap right after new messages arrive. */
  minMs: number;
  /** Longest gap during the first `longQuietMs` of quiet. */
  maxMs: number;
  /** Growth of the gap per millisecond of quiet (0.12 = +120 ms per second). */
  growth: number;
  /** After this much quiet, the gap grows again (at the same rate) up to `longMaxMs`. */
  longQuietMs: number;
  longMaxMs: number;
  /** ± share of each gap drawn at random. */
  jitter: number;
  /** Longest gap after repeated transient errors. */
  maxErrorMs: number;
  /** For this long after a wait starts, it may poll `warmupSpeedup` times faster than its share. */
  warmupMs: number;
  warmupSpeedup: number;
}

export const DEFAULT_SCHEDULE: ScheduleOptions = {
  minMs: 300,
  maxMs: 2000,
  growth: 0.12,
  longQuietMs: 60_000,
  longMaxMs: 5000,
  jitter: 0.15,
  maxErrorMs: 30_000,
  warmupMs: 2000,
  warmupSpeedup: 2.5,
};

/** Pure: the gap after `quietMs` of quiet and `errors` transient failures in a row, at least `share` once warm. */
// A 40 s turn costs about 30 requests and its final is seen at most about 2.3 s late; a CI job waiting
// twenty minutes polls about 12 times a minute. Waiters sharing the key each keep to their share as a least
// gap (budgetGap in budget/limiter.ts), so together they stay under the limit instead of queueing behind
// the limiter; in its first seconds a waiter may poll faster, so that a short turn is still seen quickly.
export function nextDelay(
  quietMs: number,
  errors: number,
  options: ScheduleOptions = DEFAULT_SCHEDULE,
  random: () => number = Math.random,
  /** A waiter's share of the key's budget: the least gap that keeps to it (0: none), and how long it has waited. */
  share?: { gapMs: number; elapsedMs: number },
): number {
  const quiet = Math.max(0, quietMs);
  let base = Math.min(options.maxMs, options.minMs + options.growth * quiet);
  if (quiet > options.longQuietMs) {
    base = Math.min(
      Math.max(options.longMaxMs, options.maxMs),
      options.maxMs + options.growth * (quiet - options.longQuietMs),
    );
  }
  if (share !== undefined) {
    const warm = share.elapsedMs < options.warmupMs;
    base = Math.max(base, warm ? share.gapMs / Math.max(1, options.warmupSpeedup) : share.gapMs);
  }
  if (errors > 0) base = Math.min(options.maxErrorMs, Math.max(base, 1000) * 2 ** Math.min(errors, 10));
  const spread = base * options.jitter;
  return Math.max(0, Math.round(base - spread + random() * 2 * spread));
}
