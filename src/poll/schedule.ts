// When to poll next. Replies are usually quick, so the first polls come fast; during a long turn the gap
// grows so that a 40 s turn costs about 30 requests (three such waits fit in one key's 100 a minute) and
// its final message is seen at most about 2.3 s late; after a minute of quiet (a CI job waiting twenty
// minutes) the gap stretches further, to about 12 requests a minute, leaving the key's budget to others.
// As soon as messages flow again the gap snaps back. Every gap carries jitter so that many clients
// started together do not poll in lockstep.

/** Tunables of the poll schedule, in milliseconds. */
export interface ScheduleOptions {
  /** First gap, and the gap right after new messages arrive. */
  minMs: number;
  /** Longest gap during the first `longQuietMs` of quiet. */
  maxMs: number;
  /** How fast the gap grows per millisecond of quiet (0.12 = +120 ms per second). */
  growth: number;
  /** After this much quiet, the gap grows again (at the same rate) ... */
  longQuietMs: number;
  /** ... up to this. */
  longMaxMs: number;
  /** ± share of each gap drawn at random. */
  jitter: number;
  /** Longest gap after repeated transient errors. */
  maxErrorMs: number;
}

export const DEFAULT_SCHEDULE: ScheduleOptions = {
  minMs: 300,
  maxMs: 2000,
  growth: 0.12,
  longQuietMs: 60_000,
  longMaxMs: 5000,
  jitter: 0.15,
  maxErrorMs: 30_000,
};

/** Pure: the gap after `quietMs` without new messages and `errors` consecutive transient failures. */
export function nextDelay(
  quietMs: number,
  errors: number,
  options: ScheduleOptions = DEFAULT_SCHEDULE,
  random: () => number = Math.random,
): number {
  const quiet = Math.max(0, quietMs);
  let base = Math.min(options.maxMs, options.minMs + options.growth * quiet);
  if (quiet > options.longQuietMs) {
    base = Math.min(
      Math.max(options.longMaxMs, options.maxMs),
      options.maxMs + options.growth * (quiet - options.longQuietMs),
    );
  }
  if (errors > 0) base = Math.min(options.maxErrorMs, Math.max(base, 1000) * 2 ** Math.min(errors, 10));
  const spread = base * options.jitter;
  return Math.max(0, Math.round(base - spread + random() * 2 * spread));
}
