// An answer a script can parse (--output-schema, the MCP server's output_schema): the reply of a turn asked
// for JSON, checked against the schema, and asked for again in a follow-up while it does not match.
import type { Message } from '../api/types.js';
import { CliError, ExitCode } from '../errors/cli-error.js';
import { SchemaMismatchError, TimeoutError } from '../errors/agents-error.js';
import { checkReply, NO_JSON, schemaFollowUp, type OutputSchema } from './structured-output.js';
import type { SchemaError } from '../errors/agents-error.js';
import { followThread, type ThreadWait } from './await-reply.js';
import type { Deadline } from './deadline.js';
import type { SchemaProblem, SessionItem } from '../events/session-items.js';
import { postTurn } from './post.js';
import type { History } from '../state/history.js';

/** A turn (`threadId`: the one that carried the instruction) whose reply must match a schema. */
export interface StructuredWait extends Omit<ThreadWait, 'mode' | 'signal' | 'policy'> {
  schema: OutputSchema;
  /** Follow-ups allowed after the first reply (0 to 10); 0 checks the reply and sends nothing. */
  retries: number;
  /** Bounds every wait and every follow-up. */
  deadline: Deadline;
  /** Where each follow-up is recorded as `last` (the CLI); nothing is recorded without. */
  books?: History;
}

/** How it ended: the value when a reply matched, else what was wrong with the last one. */
export type StructuredResult = {
  /** Replies checked: the first, and one per follow-up. */
  attempts: number;
  final: Message;
  threadId: string;
} & ({ matched: true; value: unknown } | { matched: false; problem: SchemaProblem });

/** What a result gains from the check (the CLI's --json result, the MCP tools' structuredContent). */
export type SchemaFields =
  | { structured_output: unknown; schema_attempts: number }
  | { status: 'schema_mismatch'; schema_attempts: number; schema_errors: SchemaError[] };

function errorsOf(problem: SchemaProblem): SchemaError[] {
  return problem.kind === 'mismatch' ? problem.errors : [{ path: '', message: NO_JSON }];
}

export function schemaFields(r: StructuredResult): SchemaFields {
  if (r.matched) return { structured_output: r.value, schema_attempts: r.attempts };
  return { status: 'schema_mismatch', schema_attempts: r.attempts, schema_errors: errorsOf(r.problem) };
}

/** The error of a reply that never matched: what was wrong with the last one, after how many tries. */
export function mismatchError(
  r: StructuredResult & { matched: false },
  sessionId: string,
  hint?: string,
): SchemaMismatchError {
  const { attempts, threadId, problem, final } = r;
  const tries = attempts === 1 ? '1 try' : `${attempts} tries`;
  const errors = errorsOf(problem);
  const what =
    problem.kind === 'no-json' ? NO_JSON : `${errors.length} error${errors.length === 1 ? '' : 's'}`;
  const message = `the agent's answer did not match the schema after ${tries} (${what})`;
  const init = { errors, attempts, sessionId, threadId, reply: final.message, hint };
  return new SchemaMismatchError(message, init);
}

/** Checks `final`, the reply of `threadId`, the `attempts`th one checked. */
export function checkedResult(
  final: Message,
  threadId: string,
  schema: OutputSchema,
  attempts = 1,
): StructuredResult {
  const checked = checkReply(final.message, schema);
  return checked.ok
    ? { matched: true, value: checked.value, attempts, final, threadId }
    : { matched: false, problem: checked.problem, attempts, final, threadId };
}

/** Waits for the reply and checks it, sending a follow-up saying what was wrong until one matches or the
 * retries are spent. Errors are thrown as they came; a follow-up cut short names its session. */
export async function* structuredReply(o: StructuredWait): AsyncGenerator<SessionItem, StructuredResult> {
  let threadId = o.threadId;
  for (let attempts = 1; ; attempts += 1) {
    const final = yield* followThread({ ...o, threadId, mode: 'wait', signal: o.deadline.signal });
    const checked = checkedResult(final, threadId, o.schema, attempts);
    if (checked.matched || attempts > o.retries) return checked;
    yield { kind: 'schema-retry', problem: checked.problem, retry: attempts, of: o.retries };
    threadId = await followUp(o, checked.problem);
    yield { kind: 'waiting', label: 'the corrected answer', sessionId: o.sessionId, threadId };
  }
}

/** Posts the follow-up (a POST like any other: paced, never sent twice); its thread. */
async function followUp(o: StructuredWait, problem: SchemaProblem): Promise<string> {
  const { sessionId } = o;
  const body = { message: schemaFollowUp(problem) };
  const post = postTurn(o.client, { kind: 'send', sessionId, body }, o.deadline, o.books);
  const { threadId } = await post.catch((err: unknown) => {
    // Cut short by the deadline: it says itself whether it may have been created; name the session.
    if (!(err instanceof CliError && err.exitCode === ExitCode.TIMEOUT)) throw err;
    const hint = err.hint ?? `see it with: agents show ${sessionId}`;
    const message = `${err.message} (the follow-up on session ${sessionId})`;
    throw new TimeoutError(message, { sessionId, hint, cause: err });
  });
  if (threadId !== undefined) return threadId;
  const hint = `follow it with: agents tail ${sessionId}`;
  throw new CliError(`the service returned no thread for the follow-up on session ${sessionId}`, { hint });
}
