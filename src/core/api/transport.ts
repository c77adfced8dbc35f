// One request's trip, in a retry loop: its pacing slot, the send, the body read and the decode. A read is
// retried on transient failures; a POST only when it certainly never left (the API has no idempotency key).
import { isHttpError, HttpError, abortedError, type Creates } from './errors.js';
import { backoffDelay, RECENT_ANSWER_MS, type RetryNotice, type RetryOptions } from './backoff.js';
import { afterAttempts, isOutage, retryBound, type CallBounds } from './retry-bound.js';
import { deadlineOf } from './call-deadline.js';
import { isTimeoutReason, sleep } from '../../util/sleep.js';
import { redact } from './redact.js';
import { checkDownloadUrl, downloadOnce, type Download } from './download.js';
import type { Limiter, PacingOptions, Release } from '../budget/limiter.js';
import { requestOnce, type RequestConfig, type RequestSpec } from './response.js';
import { monotonicMs } from '../../util/clock.js';

export type { Download } from './download.js';

/** The largest answer read by default (AGENTS_MAX_RESPONSE): far above any page of 100 messages. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** ClientOptions, resolved (see there). */
export interface TransportConfig extends RequestConfig {
  debug?: (line: string) => void;
  retry: RetryOptions;
  limiter: Limiter | undefined;
  onRetry?: (notice: RetryNotice) => void;
  onPaced?: (pacing: PacingOptions) => void;
}

/** How long a wait for a pacing slot must be to be traced, and to be told to onPaced. */
const PACED_TRACE_MS = 50;
const PACED_NOTICE_MS = 1000;
/**
 * How long a POST in flight at the caller's deadline may still answer: its answer (in milliseconds, usually)
 * tells refused from taken, where cutting it off leaves only "it may have been created".
 */
const POST_GRACE_MS = 1000;

/** `signal`, but POST_GRACE_MS late when it ends with a time-out (the command's deadline), at once for anything else. */
function withGrace(signal: AbortSignal) {
  const late = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    const reason: unknown = signal.reason;
    if (isTimeoutReason(reason)) timer = setTimeout(() => late.abort(reason), POST_GRACE_MS);
    else late.abort(reason);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: late.signal,
    dispose: () => {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    },
  };
}

export class Transport {
  /** Requests put on the wire so far (every attempt counts). */
  requestCount = 0;
  /** The service answered a request of this client (any HTTP status): its address is right. */
  private answered = false;

  constructor(private readonly config: TransportConfig) {}

  private readonly trace = (line: string): void => this.config.debug?.(redact(line, this.config.apiKey));

  /** GETs a presigned link outside the key's pacing, retrying transient failures as reads are. */
  async download(raw: string, signal: AbortSignal | undefined): Promise<Download> {
    const url = checkDownloadUrl(raw);
    const call: CallBounds = { started: monotonicMs(), deadline: deadlineOf(signal), outages: true };
    const config = { ...this.config, trace: this.trace };
    for (let attempt = 1, counted = 0; ; attempt++) {
      try {
        return await downloadOnce(config, url, signal);
      } catch (err) {
        if (signal?.aborted) throw abortedError(signal.reason);
        if (!isHttpError(err)) throw err;
        if (err.kind !== 'rate_limited') counted += 1;
        const delay = err.transient ? this.retryDelay(err, attempt, counted, call) : undefined;
        if (delay === undefined) throw err;
        await sleep(delay, signal).catch(() => {
          throw abortedError(signal?.reason);
        });
      }
    }
  }

  /** The wait before retrying `err` (`counted`: the failures so far not 429s), or undefined (see retryBound). */
  private retryDelay(err: HttpError, attempt: number, counted: number, call: CallBounds): number | undefined {
    const { retry } = this.config;
    const rateLimited = err.kind === 'rate_limited';
    const delay = backoffDelay(attempt, retry, { rateLimited, retryAfterS: err.retryAfterS });
    const failingForMs = monotonicMs() - call.started;
    const bound = retryBound(err, retry, {
      counted,
      elapsedMs: failingForMs + delay,
      deadline: call.deadline !== undefined,
      answered: call.deadline === undefined && call.outages && this.answeredLately(),
    });
    if (bound === undefined) return undefined;
    const shown = rateLimited ? `${attempt}` : `${counted}/${retry.maxRetries}`;
    this.trace(`retry ${shown} in ${delay} ms after: ${err.message}`);
    this.config.onRetry?.({
      attempt: counted,
      maxRetries: retry.maxRetries,
      delayMs: delay,
      reason: err.message,
      rateLimited,
      bound: bound.kind,
      ...(bound.budgetMs !== undefined ? { leftMs: Math.max(0, bound.budgetMs - failingForMs) } : {}),
      failingForMs,
    });
    return delay;
  }

  /** Whether the service answered this client, or this machine within RECENT_ANSWER_MS (the key's budget knows). */
  private answeredLately(): boolean {
    if (this.answered) return true;
    const since = this.config.limiter?.sinceAnswerMs?.();
    return since !== undefined && since <= RECENT_ANSWER_MS;
  }

  /** Sends `spec`, retrying within bounds; resolves with the JSON body. */
  async send(spec: RequestSpec, signal?: AbortSignal): Promise<unknown> {
    // A caller that rides out failed calls itself (a wait's poller) hears of each soon: no deadline here.
    const deadline = spec.ownRetries === true ? undefined : deadlineOf(signal);
    const outages = spec.ownRetries !== true || deadlineOf(signal) === undefined;
    const call: CallBounds = { started: monotonicMs(), deadline, outages };
    const bodyText = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const state = { left: false };
    // A POST cancelled after it left may still have been carried out.
    const cancelled = () =>
      abortedError(signal?.reason, spec.method === 'POST' && state.left ? spec.creates : undefined);
    for (let attempt = 1, counted = 0; ; attempt++) {
      try {
        return await this.attempt(spec, bodyText, attempt, state, signal);
      } catch (caught) {
        // Refused before it was acted on (a 429, even one in the grace after the deadline): nothing done.
        if (isHttpError(caught) && caught.neverSent) state.left = false;
        if (signal?.aborted) throw cancelled();
        const err = isHttpError(caught)
          ? caught
          : new HttpError({ kind: 'unexpected', message: String(caught), cause: caught });
        const retryable = spec.method === 'GET' ? err.transient : err.neverSent && err.transient;
        if (err.kind !== 'rate_limited') counted += 1;
        const delay = retryable ? this.retryDelay(err, attempt, counted, call) : undefined;
        if (delay !== undefined) {
          spec.onRetry?.(err);
          await sleep(delay, signal).catch(() => {
            throw cancelled();
          });
          continue;
        }
        const told = attempt > 1 ? afterAttempts(err, attempt, monotonicMs() - call.started) : err;
        throw spec.method === 'POST' ? postOutcome(told, spec.creates) : told;
      }
    }
  }

  /** One attempt: each, retries too, takes a slot of the key's budget (the service counts it). */
  private async attempt(
    spec: RequestSpec,
    bodyText: string | undefined,
    attempt: number,
    state: { left: boolean },
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    signal?.throwIfAborted(); // the limiter checks this too, but pacing may be off
    const release = await this.paced(signal, spec.urgent === true);
    this.requestCount += 1;
    state.left = true;
    const grace = spec.method === 'POST' && signal ? withGrace(signal) : undefined;
    // A 429 tells the budget that others spend the key too (budget/limiter.ts Cap).
    let refused = false;
    let answered = true;
    try {
      return await requestOnce(this.config, spec, bodyText, attempt, grace ? grace.signal : signal, this.trace);
    } catch (err) {
      refused = isHttpError(err) && err.kind === 'rate_limited';
      // A gateway's 502, 503 or 504 says nothing of the service behind it.
      answered = isHttpError(err) && err.status !== undefined && !isOutage(err);
      throw err;
    } finally {
      // The key's budget remembers it for the machine's other runs (an outage is not a typo in the URL).
      if (answered) this.answered = true;
      release?.(true, refused, answered);
      grace?.dispose();
    }
  }

  /** A slot of the key's budget; a wait past PACED_NOTICE_MS is told (a full minute is possible). */
  private async paced(signal: AbortSignal | undefined, urgent: boolean): Promise<Release | undefined> {
    const { limiter, onPaced } = this.config;
    if (limiter === undefined) return undefined;
    const notice = onPaced && setTimeout(() => onPaced(limiter), PACED_NOTICE_MS);
    const asked = monotonicMs();
    try {
      const release = await limiter.acquire(signal, { urgent });
      const waited = monotonicMs() - asked;
      if (waited >= PACED_TRACE_MS)
        this.trace(`waited ${Math.round(waited)} ms for a slot of the key's budget`);
      return release;
    } finally {
      clearTimeout(notice);
    }
  }
}

/** A POST that failed after it may have reached the service says so; one that certainly created nothing passes. */
export function postOutcome(err: HttpError, creates: Creates | undefined): HttpError {
  if (err.neverSent || err.kind === 'aborted') return err;
  if (err.status !== undefined && err.status >= 300 && err.status < 500) return err;
  const what = creates?.what ?? 'request';
  const created = err.status !== undefined && err.status < 300;
  const lead = created
    ? `the ${what} was created, but the answer could not be read`
    : `the ${what} may have been created (outcome unknown)`;
  return new HttpError({
    kind: err.kind,
    status: err.status,
    serverMessage: err.serverMessage,
    outcomeUnknown: true,
    creates,
    message: `${lead}: ${err.message}`,
    cause: err,
  });
}
