// How long to wait before retrying: exponential backoff with full jitter, so that clients failing together
// spread out instead of retrying in step.

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first wait's ceiling; doubled each retry. */
  baseDelayMs: number;
  /** Cap on any single wait we choose ourselves. */
  maxDelayMs: number;
  /** Cap on a wait asked for with Retry-After: longer than our own, since asking early earns another 429. */
  maxRetryAfterMs: number;
  /** No retry starts once this much time has passed since the first attempt (waits included). */
  totalBudgetMs: number;
  /** The same for 429s (not counted against maxRetries: "later" about a request never acted on). */
  rateLimitedBudgetMs: number;
  /** The same where nothing answers and never did (within RECENT_ANSWER_MS): a wrong host or port is told in seconds. */
  unreachableBudgetMs: number;
  /** An outage of a service that has answered is ridden out this long, whatever maxRetries says (a restart costs nothing). */
  outageBudgetMs: number;
}

/** An answer seen this recently on this machine (the key's budget remembers it) makes a refusal an outage. */
export const RECENT_ANSWER_MS = 5 * 60_000;

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 6,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  totalBudgetMs: 90_000,
  rateLimitedBudgetMs: 3 * 60_000,
  unreachableBudgetMs: 3_000,
  outageBudgetMs: 60_000,
};

/**
 * The wait before retry number `retry` (1-based): uniform in [0, min(cap, base·2^(retry-1))]. A 429 waits at
 * least half of that (the key is busy elsewhere: an instant retry only spends another request).
 */
export function backoffDelay(
  retry: number,
  options: RetryOptions,
  extra: { rateLimited?: boolean; retryAfterS?: number } = {},
  random: () => number = Math.random,
): number {
  // A 429 says the key's window is full. Its waits keep doubling up to the window's length (the cap on what
  // the service may ask), not our own cap: processes this client cannot coordinate with (on other machines,
  // or pacing alone) then let the window drain, where retries every few seconds, each refused and counted
  // against the key, kept it full for all of them.
  const cap = extra.rateLimited ? Math.max(options.maxDelayMs, options.maxRetryAfterMs) : options.maxDelayMs;
  const ceiling = Math.min(cap, options.baseDelayMs * 2 ** Math.min(Math.max(0, retry - 1), 30));
  let delay = extra.rateLimited ? ceiling / 2 + (random() * ceiling) / 2 : random() * ceiling;
  if (extra.retryAfterS !== undefined && extra.retryAfterS > 0) {
    delay = Math.max(delay, Math.min(options.maxRetryAfterMs, extra.retryAfterS * 1000));
  }
  return Math.round(delay);
}

/** Reads a Retry-After header (seconds or an HTTP date) as seconds from now. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Number(text.trim());
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** Why a retry waits: shown to a person while it waits. */
export interface RetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  delayMs: number;
  /** The failure being retried, one line. */
  reason: string;
  rateLimited?: boolean;
  /** What bounds the call (see retryBound); `leftMs`: how long it may still retry, without a deadline. */
  bound?: 'deadline' | 'outage' | 'budget' | 'count';
  leftMs?: number;
  /** Since its first attempt. */
  failingForMs?: number;
}
