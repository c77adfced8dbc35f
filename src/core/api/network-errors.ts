// Socket-level failures (no HTTP answer at all) as HttpErrors; those certainly before the request left let
// a POST be sent again.
import { HttpError, type ApiErrorKind, type HttpErrorInit } from './errors.js';

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

export interface TimeoutFigures {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
}

/** A failure without an HTTP status, of either wire (their time-outs mean the same), or while reading a body. */
export function errorFromNetwork(err: unknown, origin: string, figures: TimeoutFigures): HttpError {
  const code = errorCode(err) ?? 'unknown';
  const raw = err instanceof Error ? err.message : String(err);
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
