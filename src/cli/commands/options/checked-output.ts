// create/send --output-schema: the answer checked and asked for again (structured-reply.ts), then what a
// script gets: one line of JSON and exit 0, or exit 5 with the last errors; the CI result either way.
import type { Context } from '../../run/context.js';
import { CliError, ExitCode } from '../../../core/errors/cli-error.js';
import { DEFAULT_SCHEMA_RETRIES } from '../../../core/sessions/structured-output.js';
import { reportedResult, type CheckedTurn } from './turn-started.js';
import { waitError } from '../../../core/sessions/await-reply.js';
import { threadWait, writeOutput } from './reply-wait.js';
import type { SessionItem } from '../../../core/events/session-items.js';
import {
  mismatchError,
  schemaFields,
  structuredReply,
  type StructuredResult,
} from '../../../core/sessions/structured-reply.js';

/** Waits for an answer that matches the schema; yields what the presenter prints, or throws exit 5. */
export async function* checkedOutput(ctx: Context, t: CheckedTurn): AsyncGenerator<SessionItem> {
  const { sessionId } = t;
  const wait = threadWait(
    ctx,
    { client: t.client, sessionId, threadId: t.threadId, mode: 'wait' },
    t.deadline,
  );
  yield { kind: 'waiting', label: t.label, sessionId, url: t.url };
  let threadId = t.threadId;
  let outcome: StructuredResult;
  try {
    const run = structuredReply({
      ...wait,
      threadId,
      schema: t.schema,
      retries: t.flags.schemaRetries ?? DEFAULT_SCHEMA_RETRIES,
      deadline: t.deadline,
      books: await ctx.history(),
    });
    for (;;) {
      const step = await run.next();
      if (step.done) {
        outcome = step.value;
        break;
      }
      if (step.value.kind === 'schema-retry') yield { kind: 'waited' };
      // The turn waited on now is the follow-up's: a time-out's hint resumes that one.
      if (step.value.kind === 'waiting' && step.value.threadId) threadId = step.value.threadId;
      yield step.value;
    }
  } catch (err) {
    yield { kind: 'waited' };
    // A follow-up the deadline cut short says so itself (it may have been created), naming the session.
    if (err instanceof CliError && err.exitCode === ExitCode.TIMEOUT) throw err;
    throw waitError(err, t.deadline, ctx.signal, sessionId, threadId);
  }
  yield { kind: 'waited' };
  threadId = outcome.threadId;
  const fields = schemaFields(outcome);
  if (outcome.matched) {
    if (t.flags.output !== undefined) await writeOutput(t.flags.output, `${JSON.stringify(outcome.value)}\n`);
    const result = t.report.want
      ? { ...(await t.result(outcome.final.message, threadId)), ...fields }
      : undefined;
    yield { kind: 'structured-reply', value: outcome.value, message: outcome.final, result };
    if (result) yield reportedResult(t.report, t.title, result);
    return;
  }
  if (t.report.want) {
    const result = { ...(await t.result(outcome.final.message, threadId)), ...fields };
    yield { kind: 'wait-result', result };
    yield reportedResult(t.report, t.title, result);
  }
  yield { kind: 'schema-mismatch', problem: outcome.problem };
  throw mismatchError(outcome, sessionId, `see the conversation: agents show ${sessionId}`);
}
