// A request put on the wire, with the key, under the exchange's own deadline; a failure before the answer's
// head becomes an HttpError.
import { HttpError } from './errors.js';
import { errorFromNetwork, seconds, type TimeoutFigures } from './network-errors.js';
import type { Answer, Exchange } from './wire.js';
import { monotonicMs } from '../../util/clock.js';

export interface SendConfig extends TimeoutFigures {
  origin: string;
  apiKey: string;
  userAgent: string;
  requestTimeoutMs: number;
  exchange: Exchange;
}

export interface ExchangeDeadline {
  /** The caller's signal and the deadline's, together. */
  signal: AbortSignal;
  /** The HttpError for a failure of the network, or of the deadline when it has passed. */
  failure(err: unknown): HttpError;
  /** Since the request went, as `12 ms`. */
  elapsed(): string;
  dispose(): void;
}

/** The response time-out bounds each gap alone: without this, a body trickling a byte a second never ends. */
export function exchangeDeadline(config: SendConfig, signal: AbortSignal | undefined): ExchangeDeadline {
  const started = monotonicMs();
  const overall = new AbortController();
  const timer = setTimeout(() => overall.abort(), config.requestTimeoutMs);
  const timedOut = () =>
    new HttpError({
      kind: 'timeout',
      message: `no whole answer from ${config.origin} within ${seconds(config.requestTimeoutMs)} (AGENTS_REQUEST_TIMEOUT)`,
    });
  return {
    signal: signal ? AbortSignal.any([signal, overall.signal]) : overall.signal,
    failure: (err) => (overall.signal.aborted ? timedOut() : errorFromNetwork(err, config.origin, config)),
    elapsed: () => `${Math.round(monotonicMs() - started)} ms`,
    dispose: () => clearTimeout(timer),
  };
}

/** Resolves with the answer's head, its body still to read. */
export async function sendRequest(
  config: SendConfig,
  spec: { method: 'GET' | 'POST'; url: string },
  bodyText: string | undefined,
  deadline: ExchangeDeadline,
  signal: AbortSignal | undefined,
  trace: (line: string) => void,
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `ApiKey ${config.apiKey}`,
    accept: 'application/json',
    'user-agent': config.userAgent,
  };
  if (bodyText !== undefined) headers['content-type'] = 'application/json';
  try {
    return await config.exchange(new URL(spec.url), {
      method: spec.method,
      headers,
      body: bodyText,
      signal: deadline.signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    const apiErr = deadline.failure(err);
    trace(`← failed in ${deadline.elapsed()}: ${apiErr.message}`);
    throw apiErr;
  }
}
