// An answer a script can parse: the reply of a turn that was asked for JSON (withSchemaInstruction), checked
// against the schema, and asked for again in a follow-up in the same session while it does not match. The
// CLI (--output-schema), the MCP server (output_schema) and the Action all come here; nothing is printed.
import type { ApiClient } from '../api/client.js';
import type { Message } from '../api/types.js';
import { CliError } from '../errors/cli-error.js';
import type { FollowOptions } from '../poll/follow.js';
import type { ScheduleOptions } from '../poll/schedule.js';
import { checkReply, schemaFollowUp, type AnswerSchema, type SchemaProblem } from './answer-json.js';
import { followThread } from './await-reply.js';
import type { Deadline } from './deadline.js';
import type { SessionItem } from './items.js';
import { postTurn, type Bookkeeping } from './post.js';

/** A turn whose reply must match a schema, and how often to ask again. */
export interface StructuredWait {
  client: ApiClient;
  sessionId: string;
  /** The thread of the turn that carried the instruction. */
  threadId: string;
  schema: AnswerSchema;
  /** Follow-ups allowed after the first reply (0 to 10); 0 checks the reply and sends nothing. */
  retries: number;
  /** Bounds the whole: every wait and every follow-up (its signal ends them; `expired` says why). */
  deadline: Deadline;
  schedule?: ScheduleOptions;
  /** Also yield `activity` items while a turn runs (a spinner says what the agent does). */
  watch?: boolean;
  outage?: Pick<FollowOptions, 'maxFailedPolls' | 'onTransientError'>;
  /** Where each follow-up is recorded as the profile's `last` (the CLI); nothing is recorded without. */
  books?: Bookkeeping;
}

/** How it ended: the value when a reply matched, else what was wrong with the last one. */
export interface StructuredResult {
  matched: boolean;
  /** The value taken from the reply that matched. */
  value?: unknown;
  /** Replies checked: the first, and one per follow-up. */
  attempts: number;
  /** Not matched: what was wrong with the last reply. */
  problem?: SchemaProblem;
  /** The last reply checked, and its thread. */
  final: Message;
  threadId: string;
}

/**
 * Waits for the reply, checks it, and sends a follow-up saying what was wrong until one matches or the
 * retries are spent. Yields what happens (`activity`, then `schema-retry` before each follow-up, and
 * `waiting` as each new turn starts) and returns the result. Errors (the deadline, a failed request) are
 * thrown as they came; nothing more is sent once one is thrown.
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
    });
    const checked = checkReply(final.message, o.schema);
    if (checked.ok) return { matched: true, value: checked.value, attempts, final, threadId };
    if (attempts > o.retries) return { matched: false, problem: checked.problem, attempts, final, threadId };
    yield { kind: 'schema-retry', problem: checked.problem, retry: attempts, of: o.retries };
    // A POST like any other: paced by the client's budget, and never sent twice once it may have arrived.
    const posted = await postTurn(
      o.client,
      { kind: 'send', sessionId: o.sessionId, body: { message: schemaFollowUp(checked.problem) } },
      o.deadline,
      o.books,
    );
    if (posted.threadId === undefined) {
      throw new CliError(`the service returned no thread for the follow-up on session ${o.sessionId}`, {
        hint: `follow it with: agents tail ${o.sessionId}`,
      });
    }
    threadId = posted.threadId;
    yield { kind: 'waiting', label: 'the corrected answer', sessionId: o.sessionId };
  }
}

/** structuredReply for callers that want the result alone (the MCP server, the Action). */
export async function awaitStructuredReply(o: StructuredWait): Promise<StructuredResult> {
  const run = structuredReply(o);
  for (;;) {
    const step = await run.next();
    if (step.done) return step.value;
  }
}
