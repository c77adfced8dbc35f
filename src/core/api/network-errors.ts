// Socket-level failures (no HTTP answer at all) mapped to HttpError kinds. What matters most here is which
// failures certainly happened before the request left: only those let a POST be sent again.
import { HttpError } from './errors.js';

/** Codes that mean the connection was never made, so the request never reached the service. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'CONNECT_TIMEOUT',
]);

/**
 * Failures the wire saw before its connection was made (plain-http.ts marks them): a reset or a TLS
 * handshake that failed before any byte of the request was written, so even a POST may be sent again.
 */
const beforeConnect = new WeakSet<object>();

/** Marks `err` as a failure before the connection was made (see beforeConnect). */
export function markBeforeConnect(err: unknown): void {
  if (typeof err === 'object' && err !== null) beforeConnect.add(err);
}

const TLS_CODES = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;

/**
 * The error code of a Node or undici error (or of plain-http.ts's time-outs), looking through AggregateError
 * (happy eyeballs) and `cause`.
 */
export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  if (e.cause !== undefined && e.cause !== err) return errorCode(e.cause);
  return undefined;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Limits quoted in messages. */
export interface TimeoutFigures {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
}

/** A connection that closed: before the request was sent (it may go again), or after. */
function closed(err: unknown, origin: string, at: string, early: boolean): HttpError {
  return new HttpError({
    kind: 'connection',
    neverSent: early,
    cause: err,
    message: early
      ? `the connection to ${origin} closed before the request was sent${at}`
      : `the connection to ${origin} closed before the answer was complete${at}`,
  });
}

/**
 * Maps a failure without an HTTP status (thrown by the exchange, undici's or Node's, or while reading a
 * body). The time-outs have the same meaning under both: connect, the wait for the headers, a gap in the body.
 */
export function errorFromNetwork(err: unknown, origin: string, figures: TimeoutFigures): HttpError {
  const code = errorCode(err) ?? 'unknown';
  const raw = err instanceof Error ? err.message : String(err);
  const at = ` (${code})`;
  const early = typeof err === 'object' && err !== null && beforeConnect.has(err);
  const neverSent = NEVER_SENT.has(code) || early;
  switch (code) {
    case 'ECONNREFUSED':
      return new HttpError({
        kind: 'connection',
        neverSent,
        unreachable: true,
        cause: err,
        message: `cannot connect to ${origin}: connection refused${at}`,
      });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new HttpError({
        kind: 'connection',
        neverSent,
        unreachable: code === 'ENOTFOUND',
        cause: err,
        message: `cannot resolve the host of ${origin}${at}`,
      });
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'CONNECT_TIMEOUT':
      return new HttpError({
        kind: 'timeout',
        neverSent,
        cause: err,
        message: `no connection to ${origin} within ${seconds(figures.connectTimeoutMs)}`,
      });
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'HEADERS_TIMEOUT':
      return new HttpError({
        kind: 'timeout',
        cause: err,
        message: `no answer from ${origin} within ${seconds(figures.responseTimeoutMs)}`,
      });
    case 'UND_ERR_BODY_TIMEOUT':
    case 'BODY_TIMEOUT':
      return new HttpError({
        kind: 'timeout',
        cause: err,
        message: `the answer from ${origin} stalled for ${seconds(figures.responseTimeoutMs)}`,
      });
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return new HttpError({
        kind: 'unreadable',
        cause: err,
        message: `the answer from ${origin} was cut short${at}`,
      });
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return closed(err, origin, at, early);
    default:
      break;
  }
  if (code.startsWith('HPE_')) {
    return new HttpError({
      kind: 'unreadable',
      cause: err,
      message: `garbled HTTP answer from ${origin}${at}`,
    });
  }
  if (TLS_CODES.test(code)) {
    return new HttpError({
      kind: 'connection',
      transient: false,
      neverSent,
      cause: err,
      message: `TLS failure talking to ${origin}: ${raw}${at}`,
      advice:
        'the certificate was not accepted; check the base URL, or NODE_EXTRA_CA_CERTS behind a corporate proxy',
    });
  }
  if (/proxy/i.test(raw)) {
    return new HttpError({
      kind: 'connection',
      cause: err,
      message: `the proxy refused the request to ${origin}: ${raw}`,
      advice: 'check HTTPS_PROXY / HTTP_PROXY (and credentials in them), or exclude the host with NO_PROXY',
    });
  }
  return new HttpError({
    kind: 'connection',
    cause: err,
    message: `request to ${origin} failed: ${raw}${at}`,
  });
}
