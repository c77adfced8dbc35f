// The one error type the program ends with, the contract's exit codes, and the one mapping from what the
// HTTP layer reports (ApiError kinds) to an exit code and a hint for a person. main() catches once.
import { isApiError, type ApiError, type ApiErrorKind } from '../api/errors.js';
import { isTimeoutReason } from '../util/sleep.js';

/** Exit codes of the contract (README, "Exit codes"). */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  /** The agent's answer did not match --output-schema, however often it was asked again. */
  SCHEMA_MISMATCH: 5,
  TIMEOUT: 124,
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface CliErrorOptions {
  exitCode?: ExitCodeValue;
  /** One line for a human: what to do about it. Printed as `hint: …` under the error. */
  hint?: string;
  cause?: unknown;
  /** Ends the run with its exit code but prints nothing (a closed pipe, a quiet Ctrl-C on `tail`). */
  silent?: boolean;
}

/** A one-line message, an exit code from the contract and an optional hint. */
export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;
  readonly silent: boolean;

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? ExitCode.FAILURE;
    this.hint = options.hint;
    this.silent = options.silent === true;
  }
}

/** Bad arguments or input, found before anything was sent: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.USAGE, hint });
    this.name = 'UsageError';
  }
}

/** Reasons the run's signal aborts with, besides a deadline (an Error named TimeoutError). */
export type StopReason = 'SIGINT' | 'SIGTERM' | 'EPIPE';

/** True for an abort reason that means "the person or the pipe stopped us". */
export function isStop(reason: unknown): reason is StopReason {
  return reason === 'SIGINT' || reason === 'SIGTERM' || reason === 'EPIPE';
}

/** 401/403 → 3, 404 → 4, everything else → 1 (a 400/422 is the service refusing what we sent: the request failed). */
export function exitCodeFor(kind: ApiErrorKind): ExitCodeValue {
  if (kind === 'auth' || kind === 'forbidden') return ExitCode.AUTH;
  if (kind === 'not_found') return ExitCode.NOT_FOUND;
  // The key stayed busy past the time a command rides 429s out: a time-out, never a failure.
  if (kind === 'rate_limited') return ExitCode.TIMEOUT;
  return ExitCode.FAILURE;
}

/** One line for a human per kind: what to do about it. */
export const HINTS: Record<ApiErrorKind, string> = {
  validation: 'the service refused what was sent; check the agent, the message, artifacts and profile',
  bad_request: 'the service could not act on it; a follow-up needs a session that already has messages',
  auth: 'check the API key: agents login, or AGENTS_API_KEY',
  forbidden:
    'the key is not allowed to do this; check the API key and its workspace: agents login, or AGENTS_API_KEY',
  not_found: 'check the session id; sessions of another workspace are reported as not found',
  too_large:
    'the message is over the service’s size limit; shorten it, or attach the long part as an artifact',
  unsupported:
    'the service refused the request’s format; check the base URL points at the Agent Sessions API',
  rate_limited:
    'the key allows 100 requests a minute across every process and machine using it, and they kept it busy; try again later, or give each machine its share (AGENTS_RATE_LIMIT)',
  server: 'the service is failing; try again in a moment',
  connection:
    'check the base URL (--base-url, AGENTS_BASE_URL), the network and proxy settings (HTTPS_PROXY, NO_PROXY)',
  timeout:
    'the service or the network is slow; try again in a moment (AGENTS_RESPONSE_TIMEOUT raises the limit)',
  unreadable: 'the response was cut short or garbled on the way; try again',
  aborted: 'the request was cancelled',
  download: 'run the command again for a fresh download link; with -o FILE the content goes to a file',
  unexpected: 'the service answered in a way this version does not understand; check the base URL',
};

/** How a person checks whether a POST whose outcome is unknown was carried out. */
function outcomeHint(err: ApiError): string {
  const creates = err.creates;
  if (creates?.what === 'message') {
    return `it was not sent again, to avoid a duplicate; check with: agents show ${creates.sessionId}`;
  }
  if (creates?.what === 'session') {
    return 'it was not sent again, to avoid a duplicate; look for it in the dashboard before creating it again';
  }
  return 'it was not sent again, to avoid a duplicate';
}

/**
 * The CliError for an ApiError. A cancelled call becomes 130 (Ctrl-C, SIGTERM), 124 (a deadline) or a
 * silent 0 (the reader of stdout went away); callers that know more (a wait: which session, how to
 * resume) map those themselves first.
 */
export function fromApiError(err: ApiError): CliError {
  let exitCode = exitCodeFor(err.kind);
  let silent = false;
  if (err.kind === 'aborted') {
    if (err.reason === 'EPIPE') [exitCode, silent] = [ExitCode.OK, true];
    else if (isStop(err.reason)) exitCode = ExitCode.INTERRUPTED;
    else if (isTimeoutReason(err.reason)) exitCode = ExitCode.TIMEOUT;
  }
  const hint = err.outcomeUnknown ? outcomeHint(err) : (err.advice ?? HINTS[err.kind]);
  return new CliError(err.message, { exitCode, hint, cause: err, silent });
}

/** Anything thrown, as the CliError it ends a run (or an MCP call) with: its own, an API error's mapping, or
 * the first line of any other error's message. */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (isApiError(err)) return fromApiError(err);
  const message = err instanceof Error ? err.message : String(err);
  return new CliError(message.split('\n')[0] ?? '', { cause: err });
}
