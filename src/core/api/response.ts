// One request under its own deadline: put on the wire with the key, its response read (to the end, or
// discarded, on every path) and decoded: a 2xx body its JSON value, anything else its HttpError. The wire is
// either Node's client (plain-http.ts) or undici (through exchange.ts, which chooses). A failure with no HTTP
// answer at all is an HttpError too; one certainly before the request left lets a POST be sent again.
import { errorFromStatus, HttpError, isHttpError, summariseBody } from './errors.js';
import type { ApiErrorKind, BadRequestDefault, Creates, HttpErrorInit } from './errors.js';
import { parseRetryAfter } from './backoff.js';
import { redact } from './redact.js';
import { jsonDepthExceeds } from '../../util/json.js';
import { flatten, errorMessage } from '../../util/text.js';
import { monotonicMs } from '../../util/clock.js';

export interface ExchangeOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** The answer's head, and its body as it arrives (read it to the end, or destroy it). */
export interface Answer {
  statusCode: number;
  /** Names in lower case; a repeated header is an array (or joined with commas, as Node's client does). */
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer> & { destroy(): void };
}

export type Exchange = (url: URL, options: ExchangeOptions) => Promise<Answer>;

/** Codes that mean the connection was never made, so the request never reached the service. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'CONNECT_TIMEOUT']);

/** Failures before the connection was made (plain-http.ts marks them): no byte of the request was written. */
const beforeConnect = new WeakSet<object>();

export function markBeforeConnect(err: unknown): void {
  if (typeof err === 'object' && err !== null) beforeConnect.add(err);
}

const TLS_CODES = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;

/** The code of a Node or undici error (or of plain-http.ts's time-outs), through AggregateError (happy eyeballs) and `cause`. */
function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  if (e.cause !== undefined && e.cause !== err) return errorCode(e.cause);
  return undefined;
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export type TimeoutFigures = { connectTimeoutMs: number; responseTimeoutMs: number };

/** A failure without an HTTP status, of either wire (their time-outs mean the same), or while reading a body. */
export function errorFromNetwork(err: unknown, origin: string, figures: TimeoutFigures): HttpError {
  const code = errorCode(err) ?? 'unknown';
  const raw = errorMessage(err);
  const at = ` (${code})`;
  const early = typeof err === 'object' && err !== null && beforeConnect.has(err);
  const neverSent = NEVER_SENT.has(code) || early;
  const fail = (kind: ApiErrorKind, message: string, more: Partial<HttpErrorInit> = {}) =>
    new HttpError({ kind, cause: err, message, ...more });
  // undici's time-out codes and plain-http.ts's name the same three time-outs.
  switch (code.replace(/^UND_ERR_(?=(CONNECT|HEADERS|BODY)_TIMEOUT$)/, '')) {
    case 'ECONNREFUSED':
      return fail('connection', `cannot connect to ${origin}: connection refused${at}`, {
        neverSent,
        unreachable: true,
      });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail('connection', `cannot resolve the host of ${origin}${at}`, {
        neverSent,
        unreachable: code === 'ENOTFOUND',
      });
    case 'CONNECT_TIMEOUT':
      return fail('timeout', `no connection to ${origin} within ${seconds(figures.connectTimeoutMs)}`, { neverSent });
    case 'HEADERS_TIMEOUT':
      return fail('timeout', `no answer from ${origin} within ${seconds(figures.responseTimeoutMs)}`);
    case 'BODY_TIMEOUT':
      return fail('timeout', `the answer from ${origin} stalled for ${seconds(figures.responseTimeoutMs)}`);
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return fail('unreadable', `the answer from ${origin} was cut short${at}`);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      // Before the request was sent, it may go again.
      return fail(
        'connection',
        `the connection to ${origin} closed before ${early ? 'the request was sent' : 'the answer was complete'}${at}`,
        { neverSent: early },
      );
  }
  if (code.startsWith('HPE_')) return fail('unreadable', `garbled HTTP answer from ${origin}${at}`);
  if (TLS_CODES.test(code)) {
    return fail('connection', `TLS failure talking to ${origin}: ${raw}${at}`, {
      transient: false,
      neverSent,
      advice: 'the certificate was not accepted; check the base URL, or NODE_EXTRA_CA_CERTS behind a corporate proxy',
    });
  }
  if (/proxy/i.test(raw)) {
    return fail('connection', `the proxy refused the request to ${origin}: ${raw}`, {
      advice: 'check HTTPS_PROXY / HTTP_PROXY (and credentials in them), or exclude the host with NO_PROXY',
    });
  }
  return fail('connection', `request to ${origin} failed: ${raw}${at}`);
}

/** Error bodies are only summarised, so only their start is read; the rest is discarded with the socket. */
const ERROR_BODY_CAP = 64 * 1024;
/** Deepest JSON a response may nest: the API's nest a few levels; a parser's (or a walker's) stack is not ours to spend. */
const MAX_JSON_DEPTH = 100;

/** What one request needs of the client's settings. */
export interface RequestConfig extends TimeoutFigures {
  origin: string;
  apiKey: string;
  userAgent: string;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  exchange: Exchange;
}

/** One API call; `badRequest`: the kind a 400 without a code maps to; the rest as in CallOptions. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  creates?: Creates;
  badRequest?: BadRequestDefault;
  urgent?: boolean;
  ownRetries?: boolean;
  onRetry?: (err: HttpError) => void;
}

/** The body, at most `cap` bytes of it; past the cap, `over` is thrown, or without it the start kept. */
export async function readCapped(body: Answer['body'], cap: number, over?: () => HttpError): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream, which releases the socket.
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > cap) {
      if (over) throw over();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, cap);
}

/** The response time-out bounds each gap alone: without this, a body trickling a byte a second never ends. */
function exchangeDeadline(config: RequestConfig, signal: AbortSignal | undefined) {
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
    /** The HttpError for a failure of the network, or of the deadline when it has passed. */
    failure: (err: unknown) => (overall.signal.aborted ? timedOut() : errorFromNetwork(err, config.origin, config)),
    elapsed: () => `${Math.round(monotonicMs() - started)} ms`,
    dispose: () => clearTimeout(timer),
  };
}

/** Sends `spec` once (`bodyText`: its body as JSON); resolves with the JSON value of a 2xx response. */
export async function requestOnce(
  config: RequestConfig,
  spec: RequestSpec,
  bodyText: string | undefined,
  attempt: number,
  signal: AbortSignal | undefined,
  trace: (line: string) => void,
): Promise<unknown> {
  const sent = bodyText === undefined ? '' : `: ${flatten(bodyText)}`;
  trace(`→ ${spec.method} ${spec.url} (attempt ${attempt})${sent}`);
  const deadline = exchangeDeadline(config, signal);
  const headers: Record<string, string> = {
    authorization: `ApiKey ${config.apiKey}`,
    accept: 'application/json',
    'user-agent': config.userAgent,
  };
  if (bodyText !== undefined) headers['content-type'] = 'application/json';
  const options = { method: spec.method, headers, body: bodyText, signal: deadline.signal };
  let res: Answer;
  let text: string;
  try {
    try {
      res = await config.exchange(new URL(spec.url), options);
    } catch (err) {
      if (signal?.aborted) throw err;
      const apiErr = deadline.failure(err);
      trace(`← failed in ${deadline.elapsed()}: ${apiErr.message}`);
      throw apiErr;
    }
    text = await readText(config, res, deadline, signal, trace);
  } finally {
    deadline.dispose();
  }
  const status = res.statusCode;
  trace(`← ${status} in ${deadline.elapsed()}, ${Buffer.byteLength(text)} bytes: ${flatten(text.slice(0, 1000))}`);
  // undici hands a kept-alive socket back to its pool one turn after the response ended: a request sent
  // before then opens a second connection, with its own handshakes.
  await new Promise((resolve) => setImmediate(resolve));
  const contentType = res.headers['content-type'];
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  if (status < 200 || status >= 300) {
    throw errorFromStatus(status, text, type, {
      badRequest: spec.badRequest,
      retryAfterS: status === 429 || status === 503 ? parseRetryAfter(res.headers['retry-after']) : undefined,
      redact: (s) => redact(s, config.apiKey),
    });
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new HttpError({
      kind: 'unexpected',
      status,
      message: `unexpected answer from ${config.origin} (HTTP ${status}): JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const what = text.trim() === '' ? 'an empty body' : summariseBody(text, type).summary || 'not JSON';
    throw new HttpError({
      kind: 'unreadable',
      status,
      message: `unreadable answer from ${config.origin} (HTTP ${status}): ${redact(what, config.apiKey)}`,
    });
  }
}

/** A success's body past `maxResponseBytes` (an answer without end must not take the memory) or that fails is an HttpError; an error's that fails is empty. */
async function readText(
  config: RequestConfig,
  res: Answer,
  deadline: ReturnType<typeof exchangeDeadline>,
  signal: AbortSignal | undefined,
  trace: (line: string) => void,
): Promise<string> {
  const status = res.statusCode;
  const ok = status >= 200 && status < 300;
  const max = config.maxResponseBytes;
  const size = max % 1048576 === 0 ? `${max / 1048576} MiB` : `${max} bytes`;
  const tooLarge = () =>
    new HttpError({
      kind: 'unexpected',
      status,
      message: `the answer from ${config.origin} (HTTP ${status}) is larger than ${size}; stopped reading it (AGENTS_MAX_RESPONSE raises the limit)`,
    });
  try {
    if (ok && Number(res.headers['content-length']) > max) throw tooLarge();
    const bytes = await readCapped(res.body, ok ? max : ERROR_BODY_CAP, ok ? tooLarge : undefined);
    return bytes.toString('utf8');
  } catch (err) {
    if (signal?.aborted) throw err;
    if (isHttpError(err)) {
      res.body.destroy();
      trace(`← ${status} in ${deadline.elapsed()}: ${err.message}`);
      throw err;
    }
    const cause = deadline.failure(err);
    trace(`← ${status} in ${deadline.elapsed()}, body failed: ${cause.message}`);
    if (!ok) return '';
    throw new HttpError({
      kind: cause.kind === 'timeout' ? 'timeout' : 'unreadable',
      status,
      cause: err,
      message: `the answer (HTTP ${status}) could not be read: ${cause.message}`,
    });
  }
}
