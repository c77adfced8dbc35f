// What bounds a call's retries: its caller's deadline, an outage of a service that has answered, a 429's
// budget, or the count of retries; and the error a call that gave up ends with, saying what it tried.
import { GATEWAY_STATUSES, HttpError } from './errors.js';
import type { RetryOptions } from './backoff.js';
import { formatDuration } from '../../util/duration.js';

/** A call's start and its caller's deadline (monotonicMs), and whether it rides out outages. */
export type CallBounds = { started: number; deadline: number | undefined; outages: boolean };

/** What lets a retry go: the caller's deadline, an outage's or a 429's budget (`budgetMs`, from the call's start), or maxRetries. */
export type Bound = { kind: 'deadline' | 'outage' | 'budget' | 'count'; budgetMs?: number };

/** Pure: what a restart of the service looks like from here: no answer at all, or a gateway's 502/503/504. */
export function isOutage(err: HttpError): boolean {
  if (err.status === undefined) return err.kind === 'connection' || err.kind === 'timeout';
  return err.kind === 'server' && GATEWAY_STATUSES.has(err.status);
}

/**
 * What the call knows besides its failure: the failures counted against maxRetries (not 429s), the time
 * since it started (the next wait included), whether a deadline ends it, and whether the service answered
 * this client or this machine lately (nothing answering is then an outage, not a typo).
 */
export interface CallSoFar {
  counted: number;
  elapsedMs: number;
  deadline: boolean;
  answered: boolean;
}

/** Pure: what bounds the retry of a retryable failure (with a deadline, that), or undefined when the call gives up. */
export function retryBound(err: HttpError, retry: RetryOptions, call: CallSoFar): Bound | undefined {
  if (call.deadline) return { kind: 'deadline' };
  const { counted, elapsedMs } = call;
  if (err.kind === 'rate_limited') {
    return elapsedMs <= retry.rateLimitedBudgetMs
      ? { kind: 'budget', budgetMs: retry.rateLimitedBudgetMs }
      : undefined;
  }
  if (err.unreachable && !call.answered) {
    return counted <= retry.maxRetries && elapsedMs <= retry.unreachableBudgetMs ? { kind: 'count' } : undefined;
  }
  if (counted <= retry.maxRetries && elapsedMs <= retry.totalBudgetMs) return { kind: 'count' };
  if (call.answered && isOutage(err) && elapsedMs <= retry.outageBudgetMs) {
    return { kind: 'outage', budgetMs: retry.outageBudgetMs };
  }
  return undefined;
}

/** `err` of the last of `attempts` attempts over `ms`, its message saying so (a time-out quoted is one attempt's). */
export function afterAttempts(err: HttpError, attempts: number, ms: number): HttpError {
  // Its own fields are the init's (cause and message are not enumerable).
  return new HttpError({
    ...err,
    cause: err.cause ?? err,
    message: `${err.message} (${attempts} attempts in ${formatDuration(ms)})`,
  });
}
