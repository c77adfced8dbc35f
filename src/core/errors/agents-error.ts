// The one error hierarchy of the program and the library: the CLI ends a run with an error's exitCode, a
// program branches on its class. Each class fixes its exit code (the contract's), so the two cannot disagree.
import type { ApiErrorKind } from '../api/errors.js';

export type { ApiErrorKind };

/** One error of a reply's check against a JSON Schema: where in the value (a JSON Pointer, '' for the whole) and what. */
export interface SchemaError {
  /** Where in the value: a JSON Pointer, '' for the whole. */
  path: string;
  /** What is wrong there. */
  message: string;
}

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
/** One of the exit codes of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** What an {@link AgentsError} is made of besides its message. */
export interface AgentsErrorOptions {
  /** The CLI's exit code for it; 1 by default. */
  exitCode?: ExitCodeValue;
  /** One line for a human: what to do about it. Printed as `hint: …` under the error by the CLI. */
  hint?: string;
  /** The HTTP status the service answered, when there was one. */
  status?: number;
  /** What it came from. */
  cause?: unknown;
  /** Ends a CLI run with its exit code but prints nothing (a closed pipe, a quiet Ctrl-C on `tail`). */
  silent?: boolean;
}

/** The base class of every error the library throws (and the CLI ends with): a one-line message that never
 * carries the API key, the CLI's `exitCode`, the HTTP `status` where there is one, and a `hint`. */
export class AgentsError extends Error {
  /** The CLI's exit code for this error (the contract's). */
  readonly exitCode: ExitCodeValue;
  /** One line for a human: what to do about it. */
  readonly hint: string | undefined;
  /** The HTTP status the service answered, when there was one. */
  readonly status: number | undefined;
  /** @internal The CLI prints nothing for it (a closed pipe). */
  readonly silent: boolean;

  constructor(message: string, options: AgentsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentsError';
    this.exitCode = options.exitCode ?? ExitCode.FAILURE;
    this.hint = options.hint;
    this.status = options.status;
    this.silent = options.silent === true;
  }
}

/** What a subclass takes: everything but the exit code, which the class fixes. */
export type AgentsErrorInit = Omit<AgentsErrorOptions, 'exitCode'>;

/** Bad arguments or input, found before anything was sent (exit 2). */
export class UsageError extends AgentsError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.USAGE, hint });
    this.name = 'UsageError';
  }
}

/** The key was refused (401), or is not allowed to do this (403): exit 3. */
export class AuthError extends AgentsError {
  constructor(message: string, init: AgentsErrorInit = {}) {
    super(message, { ...init, exitCode: ExitCode.AUTH });
    this.name = 'AuthError';
  }
}

/** The session, thread or artifact does not exist, or belongs to another workspace (exit 4). */
export class NotFoundError extends AgentsError {
  constructor(message: string, init: AgentsErrorInit = {}) {
    super(message, { ...init, exitCode: ExitCode.NOT_FOUND });
    this.name = 'NotFoundError';
  }
}

/** Where a wait that timed out can be picked up again. */
export interface TimeoutErrorInit extends AgentsErrorInit {
  /** The session waited on, when there was one. */
  sessionId?: string;
  /** The turn (thread) waited on, when known. */
  threadId?: string;
  /** A wait's time ran out: the polls the service answered during it (0: it never answered). */
  answered?: number;
  /** A wait's time ran out with the service's last answer a 429 (the key's budget spent by others). */
  rateLimited?: boolean;
  /** A wait with a schema ran out: the replies checked so far (each one that did not match was asked again). */
  attempts?: number;
}

/** The call's `timeout` ran out, or the key's budget stayed spent past it (exit 124). A wait that timed out
 * names its session and thread: the session goes on, and a later wait on them picks it up. */
export class TimeoutError extends AgentsError {
  /** The session waited on, when there was one. */
  readonly sessionId: string | undefined;
  /** The turn (thread) waited on, when known: after a schema's follow-up, the follow-up's. */
  readonly threadId: string | undefined;
  /** Set when a wait's own time ran out (not a request's, nor a follow-up's post): the polls the service
   * answered during it. 0 means the service never answered (the key busy, the service down). */
  readonly answered: number | undefined;
  /** The wait's last poll was refused with a 429: the key's budget was spent (by this or other processes). */
  readonly rateLimited: boolean;
  /** A wait with a schema: the replies checked before the time ran out (0: none came). */
  readonly attempts: number | undefined;

  constructor(message: string, init: TimeoutErrorInit = {}) {
    const { sessionId, threadId, answered, rateLimited, attempts, ...rest } = init;
    super(message, { ...rest, exitCode: ExitCode.TIMEOUT });
    this.name = 'TimeoutError';
    this.sessionId = sessionId;
    this.threadId = threadId;
    this.answered = answered;
    this.rateLimited = rateLimited === true;
    this.attempts = attempts;
  }
}

/** What a schema mismatch carries. */
export interface SchemaMismatchInit extends AgentsErrorInit {
  /** What was wrong with the last reply (a reply with no JSON in it is one error at path ''). */
  errors: SchemaError[];
  /** Replies checked: the first, and one per follow-up. */
  attempts: number;
  /** The session asked. */
  sessionId: string;
  /** The thread of the last reply checked. */
  threadId: string;
  /** The last reply's text. */
  reply: string;
}

/** The agent's answer did not match the output schema, however often it was asked again (exit 5). */
export class SchemaMismatchError extends AgentsError {
  /** What was wrong with the last reply. */
  readonly errors: SchemaError[];
  /** Replies checked: the first, and one per follow-up. */
  readonly attempts: number;
  /** The session asked. */
  readonly sessionId: string;
  /** The thread of the last reply checked. */
  readonly threadId: string;
  /** The last reply's text. */
  readonly reply: string;

  constructor(message: string, init: SchemaMismatchInit) {
    const { errors, attempts, sessionId, threadId, reply, ...rest } = init;
    super(message, { ...rest, exitCode: ExitCode.SCHEMA_MISMATCH });
    this.name = 'SchemaMismatchError';
    this.errors = errors;
    this.attempts = attempts;
    this.sessionId = sessionId;
    this.threadId = threadId;
    this.reply = reply;
  }
}

/** What an API error carries. */
export interface ApiErrorInit extends AgentsErrorInit {
  /** What went wrong. */
  kind: ApiErrorKind;
  /** A create or send that may have reached the service: it was not sent again, to avoid a duplicate. */
  outcomeUnknown?: boolean;
}

/** Any other failure of a call to the service (exit 1): refused (400, 413, 422), failing (5xx), unreachable,
 * slow or garbled. `kind` says which; `outcomeUnknown` marks a create or send that may have been carried out.
 */
export class ApiError extends AgentsError {
  /** What went wrong. */
  readonly kind: ApiErrorKind;
  /** A create or send that may have reached the service (it was not sent again). */
  readonly outcomeUnknown: boolean;

  constructor(message: string, init: ApiErrorInit) {
    const { kind, outcomeUnknown, ...rest } = init;
    super(message, { ...rest, exitCode: ExitCode.FAILURE });
    this.name = 'ApiError';
    this.kind = kind;
    this.outcomeUnknown = outcomeUnknown === true;
  }
}

/** The call was cancelled through its AbortSignal (exit 130); the session, if any, goes on. */
export class AbortError extends AgentsError {
  constructor(message: string, init: AgentsErrorInit = {}) {
    super(message, { ...init, exitCode: ExitCode.INTERRUPTED });
    this.name = 'AbortError';
  }
}
