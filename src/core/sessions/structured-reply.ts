// An answer a script can parse: the reply of a turn that was asked for JSON (withSchemaInstruction), checked
// against the schema, and asked for again in a follow-up in the same session while it does not match. The
// CLI (--output-schema, the Action through it) and the MCP server (output_schema) come here; nothing is printed.
import type { ApiClient } from '../api/client.js';
import type { Message } from '../api/types.js';
import { CliError, ExitCode } from '../errors/cli-error.js';
import { SchemaMismatchError, TimeoutError } from '../errors/agents-error.js';
import type { FollowOptions } from '../poll/follow.js';
import type { ScheduleOptions } from '../poll/schedule.js';
import {
  checkReply,
  NO_JSON,
  problemSummary,
  schemaFollowUp,
  type OutputSchema,
} from './structured-output.js';
import type { SchemaError, SchemaProblem } from '../events/schema-errors.js';
import { followThread } from './await-reply.js';
import type { Deadline } from './deadline.js';
import type { SessionItem } from '../events/session-items.js';
import { postTurn, type Bookkeeping } from './post.js';

/** A turn whose reply must match a schema, and how often to ask again. */
export interface StructuredWait {
  client: ApiClient;
  sessionId: string;
  /** The thread of the turn that carried the instruction. */
  threadId: string;
  schema: OutputSchema;
  /** Follow-ups allowed after the first reply (0 to 10); 0 checks the reply and sends nothing. */
  retries: number;
  /** Bounds the whole: every wait and every follow-up (its signal ends them; `expired` says why). */
  deadline: Deadline;
  schedule?: ScheduleOptions;
  /** Also yield `activity` items while a turn runs (a spinner says what the agent does). */
  watch?: boolean;
  outage?: Pick<FollowOptions, 'maxFailedPolls' | 'onTransientError'>;
  /** Told after each poll the service answered (see ThreadWait). */
  onPoll?: () => void;
  /** Where each follow-up is recorded as the profile's `last` (the CLI); nothing is recorded without. */
  books?: Bookkeeping;
}

/** How it ended: the value when a reply matched, else what was wrong with the last one. */
export type StructuredResult = {
  /** Replies checked: the first, and one per follow-up. */
  attempts: number;
  /** The last reply checked, and its thread. */
  final: Message;
  threadId: string;
} & ({ matched: true; value: unknown } | { matched: false; problem: SchemaProblem });

/** What a result gains from the check (the CLI's --json result, the MCP tools' structuredContent). */
export type SchemaFields =
  | { structured_output: unknown; schema_attempts: number }
  | { status: 'schema_mismatch'; schema_attempts: number; schema_errors: SchemaError[] };

/** The fields of `r` for a result: the value and the tries, or the last errors ("no JSON found" as one). */
export function schemaFields(r: StructuredResult): SchemaFields {
  if (r.matched) return { structured_output: r.value, schema_attempts: r.attempts };
  const { problem } = r;
  const errors = problem.kind === 'mismatch' ? problem.errors : [{ path: '', message: NO_JSON }];
  return { status: 'schema_mismatch', schema_attempts: r.attempts, schema_errors: errors };
}

/** The error of a reply that never matched: what was wrong with the last one, after how many tries. */
export function mismatchError(
  r: StructuredResult & { matched: false },
  sessionId: string,
  hint?: string,
): SchemaMismatchError {
  const tries = r.attempts === 1 ? '1 try' : `${r.attempts} tries`;
  const { problem } = r;
  const errors = problem.kind === 'mismatch' ? problem.errors : [{ path: '', message: NO_JSON }];
  return new SchemaMismatchError(
    `the agent's answer did not match the schema after ${tries} (${problemSummary(problem)})`,
    { errors, attempts: r.attempts, sessionId, threadId: r.threadId, reply: r.final.message, hint },
  );
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

/**
 * Waits for the reply, checks it, and sends a follow-up saying what was wrong until one matches or the
 * retries are spent. Yields what happens (`activity`, then `schema-retry` before each follow-up, and
 * `waiting` with its thread as each new turn starts) and returns the result. Errors (the deadline, a failed
 * request) are thrown as they came, a follow-up cut short naming its session; nothing more is sent then.
 */
export async function* structuredReply(o: StructuredWait): AsyncGenerator<SessionItem, StructuredResult> {
  let threadId = o.threadId;
  for (let attempts = 1; ; attempts += 1) {
    const final = yield* followThread({
      client: o.client,
      sessionId: o.sessionId,
      threadId,
      mode: 'wait',
      signal: o.deadline.signal,
      schedule: o.schedule,
      watch: o.watch,
      outage: o.outage,
      onPoll: o.onPoll,
    });
    const checked = checkedResult(final, threadId, o.schema, attempts);
    if (checked.matched || attempts > o.retries) return checked;
    yield { kind: 'schema-retry', problem: checked.problem, retry: attempts, of: o.retries };
    threadId = await followUp(o, checked.problem);
    yield { kind: 'waiting', label: 'the corrected answer', sessionId: o.sessionId, threadId };
  }
}

/** Posts the follow-up that says what was wrong; its thread. */
async function followUp(o: StructuredWait, problem: SchemaProblem): Promise<string> {
  const { sessionId } = o;
  let threadId: string | undefined;
  try {
    // A POST like any other: paced by the client's budget, and never sent twice once it may have arrived.
    const body = { message: schemaFollowUp(problem) };
    ({ threadId } = await postTurn(o.client, { kind: 'send', sessionId, body }, o.deadline, o.books));
  } catch (err) {
    // Cut short by the deadline: it says itself that it may have been created; name the session.
    if (err instanceof CliError && err.exitCode === ExitCode.TIMEOUT) {
      throw new TimeoutError(`${err.message} (the follow-up on session ${sessionId})`, {
        sessionId,
        hint: err.hint ?? `see it with: agents show ${sessionId}`,
        cause: err,
      });
    }
    throw err;
  }
  if (threadId === undefined) {
    throw new CliError(`the service returned no thread for the follow-up on session ${sessionId}`, {
      hint: `follow it with: agents tail ${sessionId}`,
    });
  }
  return threadId;
}
