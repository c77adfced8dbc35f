// What the HTTP layer reports (HttpError kinds) as the error classes of agents-error.ts, with a hint.
import { isHttpError, type HttpError, type ApiErrorKind } from '../api/errors.js';
import { isTimeoutReason } from '../../util/sleep.js';
import {
  AbortError,
  AgentsError,
  ApiError,
  AuthError,
  ExitCode,
  NotFoundError,
  TimeoutError,
} from './agents-error.js';
import { errorMessage } from '../../util/text.js';

export { ExitCode, UsageError, type ExitCodeValue } from './agents-error.js';
/** The CLI's name for the base class of the one hierarchy (errors/agents-error.ts). */
export { AgentsError as CliError };

/** Reasons the run's signal aborts with when the person or the pipe stopped us (a deadline is an Error). */
export type StopReason = 'SIGINT' | 'SIGTERM' | 'EPIPE';

export function isStop(reason: unknown): reason is StopReason {
  return reason === 'SIGINT' || reason === 'SIGTERM' || reason === 'EPIPE';
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
function outcomeHint({ creates }: HttpError): string {
  const hint = 'it was not sent again, to avoid a duplicate';
  if (creates?.what === 'message') return `${hint}; check with: agents show ${creates.sessionId}`;
  if (creates?.what === 'session') return `${hint}; look for it in the dashboard before creating it again`;
  return hint;
}

/** The error of the one hierarchy for an HttpError; a cancelled call is an AbortError, or a silent exit 0
 * when the reader of stdout went away. Callers that know more (a wait: which session) map those first. */
export function fromHttpError(err: HttpError): AgentsError {
  const hint = err.outcomeUnknown ? outcomeHint(err) : (err.advice ?? HINTS[err.kind]);
  const { kind, message } = err;
  const init = { hint, cause: err, status: err.status };
  if (kind === 'aborted') {
    if (err.reason === 'EPIPE')
      return new AgentsError(message, { ...init, exitCode: ExitCode.OK, silent: true });
    return isTimeoutReason(err.reason) ? new TimeoutError(message, init) : new AbortError(message, init);
  }
  if (kind === 'auth' || kind === 'forbidden') return new AuthError(message, init);
  if (kind === 'not_found') return new NotFoundError(message, init);
  // The key stayed busy past the time a command rides 429s out: a time-out, never a failure.
  if (kind === 'rate_limited') return new TimeoutError(message, init);
  // A 400/422 is the service refusing what we sent: the request failed (exit 1).
  return new ApiError(message, { ...init, kind, outcomeUnknown: err.outcomeUnknown });
}

/** Anything thrown, as the error it ends a run (or an MCP call) with: the first line of a foreign message. */
export function toCliError(err: unknown): AgentsError {
  if (err instanceof AgentsError) return err;
  if (isHttpError(err)) return fromHttpError(err);
  const message = errorMessage(err);
  return new AgentsError(message.split('\n')[0] ?? '', { cause: err });
}
