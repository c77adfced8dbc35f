// One error class for everything the HTTP layer can end with, a kind per case, and whatever a server or gateway
// answered as one short line: the `error` text of JSON, the title of an HTML page (never the page), or the
// first words of anything else. It knows HTTP, not the command line: exit codes and hints are the CLI's
// mapping (src/core/errors/cli-error.ts).
import { isObject } from '../../util/json.js';
import { flatten } from '../../util/text.js';

/** What went wrong, coarse enough for callers to branch on. */
export type ApiErrorKind =
  /** 400 VALIDATION, or 422 (the live service's answer for the same refusals). */
  | 'validation'
  /** 400 BAD_REQUEST: the service could not act on a well-formed request. */
  | 'bad_request'
  | 'auth'
  | 'forbidden'
  | 'not_found'
  /** 413: the body is over the service's size limit. */
  | 'too_large'
  /** 415: the service would not take the body's media type. */
  | 'unsupported'
  | 'rate_limited'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'unreadable'
  | 'aborted'
  /** A presigned download link was refused, expired or too large. */
  | 'download'
  | 'unexpected';

/** What a POST creates: a failure after it may have arrived says what to look for. */
export type Creates = { what: 'session' } | { what: 'message'; sessionId: string };

/** An HttpError's fields; `transient` overrides the kind's (a TLS failure is a connection error not worth retrying). */
export type HttpErrorInit = Partial<Omit<HttpError, keyof Error>> &
  Pick<HttpError, 'kind' | 'message'> & { cause?: unknown };

const TRANSIENT_KINDS = new Set<ApiErrorKind>(['connection', 'timeout', 'rate_limited', 'unreadable']);
/** A gateway's answers: transient, and what an outage of the service behind it looks like. */
export const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** A failed call to the Agent Sessions API. Its message is one line, capped, and never holds the key. */
export class HttpError extends Error {
  readonly kind!: ApiErrorKind;
  readonly status: number | undefined;
  /** The service's own `error` text, when the body was JSON. */
  readonly serverMessage: string | undefined;
  /** Worth retrying a read later: connection, timeout, 429, 502/503/504, unreadable body. */
  readonly transient: boolean;
  /** A POST that may have reached the service: repeating it could create a duplicate. */
  readonly outcomeUnknown: boolean;
  /** The request certainly never reached the service (refused connection, DNS failure, 429): even a POST may go again. */
  readonly neverSent: boolean;
  /** Nothing answers at the address (connection refused, unknown host): retried only briefly. */
  readonly unreachable: boolean;
  /** Seconds the service asked us to wait (Retry-After), if it said. */
  readonly retryAfterS: number | undefined;
  /** What the failed POST creates, when it is one. */
  readonly creates: Creates | undefined;
  /** An advisory line for a person, when the cause is specific (a proxy, a certificate). */
  readonly advice: string | undefined;
  /** Why the call was cancelled (the AbortSignal's reason), for kind 'aborted'. */
  readonly reason: unknown;

  constructor({ message, cause, ...init }: HttpErrorInit) {
    super(flatten(message, 300), cause === undefined ? undefined : { cause });
    Object.assign(this, init);
    this.name = 'HttpError';
    this.outcomeUnknown = init.outcomeUnknown === true;
    this.neverSent = init.neverSent === true;
    this.unreachable = init.unreachable === true;
    this.transient =
      !this.outcomeUnknown &&
      (init.transient ??
        (TRANSIENT_KINDS.has(init.kind) ||
          (init.kind === 'server' && init.status !== undefined && GATEWAY_STATUSES.has(init.status))));
  }
}

export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}

const BY_STATUS: Record<number, [ApiErrorKind, string]> = {
  401: ['auth', 'authentication failed'],
  403: ['forbidden', 'permission denied'],
  404: ['not_found', 'not found'],
  413: ['too_large', 'the request is larger than the service accepts'],
  415: ['unsupported', 'the service did not accept the request body'],
  422: ['validation', 'the service rejected the request as invalid'],
  429: ['rate_limited', 'rate limit exceeded'],
};

/** Which kind a 400 defaults to when the body carries no code: create refuses with VALIDATION, send with BAD_REQUEST. */
export type BadRequestDefault = 'validation' | 'bad_request';

/** Builds the error for an HTTP answer that is not a success. `redact` scrubs anything the server said. */
export function errorFromStatus(
  status: number,
  bodyText: string,
  contentType: string | undefined,
  options: { badRequest?: BadRequestDefault; retryAfterS?: number; redact?: (s: string) => string } = {},
): HttpError {
  const redact = options.redact ?? ((s: string) => s);
  const body = summariseBody(redact(bodyText), contentType);
  let kind: ApiErrorKind;
  let label: string;
  if (status === 400) {
    // A code VALIDATION or BAD_REQUEST names its kind.
    const code = body.code?.toLowerCase();
    kind = code === 'validation' || code === 'bad_request' ? code : (options.badRequest ?? 'bad_request');
    label = kind === 'validation' ? BY_STATUS[422]![1] : 'the service refused the request';
  } else if (BY_STATUS[status] !== undefined) [kind, label] = BY_STATUS[status];
  else if (status >= 500) [kind, label] = ['server', 'the service failed'];
  else [kind, label] = ['unexpected', 'unexpected response'];

  const codePart = body.code ? ` ${body.code}` : '';
  const detail = body.serverMessage ?? body.summary;
  return new HttpError({
    kind,
    status,
    message: `${label} (HTTP ${status}${codePart})${detail ? `: ${detail}` : ''}`,
    serverMessage: body.serverMessage,
    neverSent: status === 429,
    retryAfterS: options.retryAfterS,
  });
}

/** A call cancelled through its AbortSignal; `creates`: what a POST cancelled after it left may have created. */
export function abortedError(reason: unknown, creates?: Creates): HttpError {
  return new HttpError({
    kind: 'aborted',
    message: creates ? `request cancelled; the ${creates.what} may have been created` : 'request cancelled',
    outcomeUnknown: creates !== undefined,
    creates,
    cause: reason,
    reason,
  });
}

interface BodySummary {
  /** The `error` text of a JSON body. */
  serverMessage?: string;
  /** A code the body carried (`code`, `error_code`, or `error.code`), e.g. VALIDATION. */
  code?: string;
  /** A short description when there is no `error` text: `HTML page "502 Bad Gateway"`, or the text's start. */
  summary: string;
}

/** A code a client may branch on: a short word, never text to show (the error body's contract says so too). */
export const ERROR_CODE_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;

function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function fromJson(json: unknown): BodySummary | undefined {
  if (!isObject(json)) return undefined;
  let message = asText(json.error) ?? asText(json.message);
  let code = asText(json.code) ?? asText(json.error_code);
  // Some services nest it: {"error": {"message": "…", "code": "…"}}.
  if (isObject(json.error)) {
    message ??= asText(json.error.message);
    code ??= asText(json.error.code);
  }
  return {
    serverMessage: message === undefined ? undefined : flatten(message),
    code: code === undefined || !ERROR_CODE_PATTERN.test(code) ? undefined : code,
    summary: message === undefined ? 'JSON body without an error text' : '',
  };
}

export function summariseBody(text: string, contentType: string | undefined): BodySummary {
  const type = (contentType ?? '').toLowerCase();
  const trimmed = text.trim();
  if (trimmed === '') return { summary: '' };
  if (type.includes('json') || trimmed.startsWith('{')) {
    try {
      const summary = fromJson(JSON.parse(trimmed));
      if (summary) return summary;
    } catch {
      // Not JSON after all: fall through to the text forms.
    }
  }
  if (type.includes('html') || /^<(!doctype|html|head|body|\?xml)/i.test(trimmed)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1];
    const clean = title === undefined ? '' : flatten(title.replace(/<[^>]*>/g, ''), 80);
    return { summary: clean ? `HTML page "${clean}"` : 'HTML page' };
  }
  return { summary: flatten(trimmed) };
}
