// One error class for everything the HTTP layer can end with, a kind per case, and the contract's exit code
// derived from the kind (Stainless SDKs' core/error.ts: pick the class from the status, keep the server's text).
import { CliError, ExitCode, type ExitCodeValue } from '../errors.js';
import { oneLine, summariseBody } from './summary.js';

/** What went wrong, coarse enough for callers to branch on. */
export type ApiErrorKind =
  | 'validation'
  | 'bad_request'
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'unprocessable'
  | 'rate_limited'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'unreadable'
  | 'aborted'
  | 'unexpected';

/** Everything an ApiError is built from. */
export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  hint?: string;
  status?: number;
  serverMessage?: string;
  /** The request certainly never reached the service (refused connection, DNS failure, 429). */
  neverSent?: boolean;
  outcomeUnknown?: boolean;
  cause?: unknown;
  /** Overrides the exit code derived from the kind (aborts: 130 or 124). */
  exitCode?: ExitCodeValue;
  /** Seconds from a Retry-After header, when the service sent one. */
  retryAfterS?: number;
  /** Overrides the transience derived from the kind (a TLS failure is a connection error not worth retrying). */
  transient?: boolean;
}

const TRANSIENT_KINDS: ReadonlySet<ApiErrorKind> = new Set([
  'connection',
  'timeout',
  'rate_limited',
  'unreadable',
]);
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** A failed call to the Agent Sessions API. Its message is one line, capped, and never holds the key. */
export class ApiError extends CliError {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  /** The service's own `error` text, when the body was JSON. */
  readonly serverMessage: string | undefined;
  /** Worth retrying a read later: connection, timeout, 429, 502/503/504, unreadable body. */
  readonly transient: boolean;
  /** A POST that may have reached the service: repeating it could create a duplicate. */
  readonly outcomeUnknown: boolean;
  /** The request certainly never reached the service, so even a POST may be sent again. */
  readonly neverSent: boolean;
  /** Seconds the service asked us to wait (Retry-After), if it said. */
  readonly retryAfterS: number | undefined;

  constructor(init: ApiErrorInit) {
    super(oneLine(init.message, 300), {
      exitCode: init.exitCode ?? exitCodeFor(init.kind),
      hint: init.hint ?? HINTS[init.kind],
      cause: init.cause,
    });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.outcomeUnknown = init.outcomeUnknown === true;
    this.neverSent = init.neverSent === true;
    this.retryAfterS = init.retryAfterS;
    this.transient =
      !this.outcomeUnknown &&
      (init.transient ??
        (TRANSIENT_KINDS.has(init.kind) ||
          (init.kind === 'server' && init.status !== undefined && TRANSIENT_STATUSES.has(init.status))));
  }
}

/**
 * 401/403 → 3, 404 → 4, everything else → 1. A 400/422 is the service refusing what we sent, not a usage
 * error of ours (exit 2 promises that nothing was sent), so it is a failed request: 1.
 */
export function exitCodeFor(kind: ApiErrorKind): ExitCodeValue {
  if (kind === 'auth' || kind === 'forbidden') return ExitCode.AUTH;
  if (kind === 'not_found') return ExitCode.NOT_FOUND;
  return ExitCode.FAILURE;
}

/** One line for a human per kind: what to do about it. */
export const HINTS: Record<ApiErrorKind, string> = {
  validation: 'check the agent (--agent, --agent-id or --agent-profile) and the message',
  bad_request: 'the service could not act on it; a follow-up needs a session that already has messages',
  auth: 'check the API key: agents login, or AGENTS_API_KEY',
  forbidden:
    'the key is not allowed to do this; check the API key and its workspace: agents login, or AGENTS_API_KEY',
  not_found: 'check the session id; sessions of another workspace are reported as not found',
  unprocessable: 'the service refused the content; check the message, artifacts and profile',
  rate_limited: 'the key allows 100 requests a minute across every process using it; wait a minute and retry',
  server: 'the service is failing; try again in a moment',
  connection:
    'check the base URL (--base-url, AGENTS_BASE_URL), the network and proxy settings (HTTPS_PROXY, NO_PROXY)',
  timeout: 'the service or the network is slow; try again in a moment',
  unreadable: 'the response was cut short or garbled on the way; try again',
  aborted: 'the request was cancelled',
  unexpected: 'the service answered in a way this version does not understand; check the base URL',
};

const LABELS: Record<number, string> = {
  401: 'authentication failed',
  403: 'permission denied',
  404: 'not found',
  422: 'the service could not process the request',
  429: 'rate limit exceeded',
};

/** Which kind a 400 defaults to when the body carries no code: create refuses with VALIDATION, send with BAD_REQUEST. */
export type BadRequestDefault = 'validation' | 'bad_request';

/** Builds the error for an HTTP answer that is not a success. `key` is redacted from anything the server said. */
export function errorFromStatus(
  status: number,
  bodyText: string,
  contentType: string | undefined,
  options: { badRequest?: BadRequestDefault; retryAfterS?: number; redact?: (s: string) => string } = {},
): ApiError {
  const redact = options.redact ?? ((s: string) => s);
  const body = summariseBody(redact(bodyText), contentType);
  let kind: ApiErrorKind;
  let label: string;
  if (status === 400) {
    const code = body.code?.toUpperCase();
    kind =
      code === 'VALIDATION'
        ? 'validation'
        : code === 'BAD_REQUEST'
          ? 'bad_request'
          : (options.badRequest ?? 'bad_request');
    label =
      kind === 'validation'
        ? 'the service rejected the request as invalid'
        : 'the service refused the request';
  } else if (status === 401) [kind, label] = ['auth', LABELS[401]!];
  else if (status === 403) [kind, label] = ['forbidden', LABELS[403]!];
  else if (status === 404) [kind, label] = ['not_found', LABELS[404]!];
  else if (status === 422) [kind, label] = ['unprocessable', LABELS[422]!];
  else if (status === 429) [kind, label] = ['rate_limited', LABELS[429]!];
  else if (status >= 500) [kind, label] = ['server', 'the service failed'];
  else [kind, label] = ['unexpected', 'unexpected response'];

  const codePart = body.code ? ` ${body.code}` : '';
  const detail = body.serverMessage ?? body.summary;
  return new ApiError({
    kind,
    status,
    message: `${label} (HTTP ${status}${codePart})${detail ? `: ${detail}` : ''}`,
    serverMessage: body.serverMessage,
    neverSent: status === 429,
    retryAfterS: options.retryAfterS,
  });
}

/**
 * An ApiError for a call cancelled through its AbortSignal; `cause` is the signal's reason. `mayHaveCreated`
 * names what a POST cancelled after it left may have created.
 */
export function abortedError(reason: unknown, mayHaveCreated?: { what: string; hint: string }): ApiError {
  let exitCode: ExitCodeValue | undefined;
  if (reason === 'SIGINT' || reason === 'SIGTERM') exitCode = ExitCode.INTERRUPTED;
  else if (reason instanceof Error && reason.name === 'TimeoutError') exitCode = ExitCode.TIMEOUT;
  return new ApiError({
    kind: 'aborted',
    message: mayHaveCreated
      ? `request cancelled; the ${mayHaveCreated.what} may have been created`
      : 'request cancelled',
    hint: mayHaveCreated?.hint,
    outcomeUnknown: mayHaveCreated !== undefined,
    cause: reason,
    exitCode,
  });
}

/** True for anything that means "cancelled on purpose": an aborted ApiError or a platform AbortError. */
export function isAbort(err: unknown): boolean {
  if (err instanceof ApiError) return err.kind === 'aborted';
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}
