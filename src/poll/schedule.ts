// When to poll next. Replies are usually quick, so the first polls come fast; during a long turn the gap
// grows so that a 40 s turn costs about 30 requests (two such waits fit in one key's 100 a minute); as
// soon as messages flow again the gap snaps back. Every gap carries jitter so that many clients started
// together do not poll in lockstep.

/** Tunables of the poll schedule, in milliseconds. */
export interface ScheduleOptions {
  /** First gap, and the gap right after new messages arrive. */
  minMs: number;
  /** Longest gap while idle. */
  maxMs: number;
  /** How fast the gap grows per millisecond of quiet (0.08 = +80 ms per second). */
  growth: number;
  /** ± share of each gap drawn at random. */
  jitter: number;
  /** Longest gap after repeated transient errors. */
  maxErrorMs: number;
}

export const DEFAULT_SCHEDULE: ScheduleOptions = {
  minMs: 300,
  maxMs: 3000,
  growth: 0.08,
  jitter: 0.2,
  maxErrorMs: 30_000,
};

/** Pure: the gap after `quietMs` without new messages and `errors` consecutive transient failures. */
export function nextDelay(
  quietMs: number,
  errors: number,
  options: ScheduleOptions = DEFAULT_SCHEDULE,
  random: () => number = Math.random,
): number {
  let base = Math.min(options.maxMs, options.minMs + options.growth * Math.max(0, quietMs));
  if (errors > 0) base = Math.min(options.maxErrorMs, Math.max(base, 1000) * 2 ** Math.min(errors, 10));
  const spread = base * options.jitter;
  return Math.max(0, Math.round(base - spread + random() * 2 * spread));
}
