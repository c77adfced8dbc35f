// The rest of a create or send once the service has taken the message: the next steps, or the wait (and
// --notify), the CI job's result, and with --output-schema the answer checked and asked for again.
import type { Context } from '../../run/context.js';
import {
  type ApiClient,
  CliError,
  type Deadline,
  DEFAULT_SCHEMA_RETRIES,
  ExitCode,
  followThread,
  githubFiles,
  type Message,
  mismatchError,
  notifyEnd,
  notifyHow,
  outagePolicy,
  type OutputSchema,
  schemaFields,
  type SessionItem,
  structuredReply,
  type StructuredResult,
  type ThreadWait,
  waitError,
  waitResult,
  type WaitResult,
} from '../../../core/index.js';
import { writeOutput } from './artifact-output.js';
import type { ReplyFlags } from '../../input/reply-flags.js';

export interface TurnStarted {
  client: ApiClient;
  sessionId: string;
  threadId: string | undefined;
  flags: ReplyFlags & { schema?: OutputSchema };
  deadline: Deadline;
  who: string;
  title?: string;
  label: string;
  url?: string;
  /** What the answer was, for the error when it named no thread: "session <id>", "the follow-up on …". */
  what: string;
}

type Turn = TurnStarted & { threadId: string };

/** How the CI job's result is reported: wanted at all (--json or GitHub), and which runner files. */
type Reporting = { want: boolean; summary?: string; output?: string };

function reported(report: Reporting, title: string | undefined, result: WaitResult): SessionItem {
  return { kind: 'github-result', result, summary: report.summary, output: report.output, title };
}

/** Whether this run's notification is the `notify` setting's program (a bad setting: no, notify() says why). */
async function notifyByProgram(ctx: Context, flag: boolean | undefined): Promise<boolean> {
  if (flag === false) return false;
  try {
    return notifyHow(flag, (await ctx.settings(['notify'])).notify).kind === 'program';
  } catch {
    return false;
  }
}

/** Without --wait/--follow the next steps; with them, the wait (and --notify), then the next steps. */
export async function* afterPost(ctx: Context, started: TurnStarted): AsyncGenerator<SessionItem> {
  const { flags, sessionId, threadId } = started;
  if (flags.wait !== true && flags.follow !== true) {
    yield { kind: 'next-steps', sessionId, finished: false };
    return;
  }
  if (threadId === undefined) {
    throw new CliError(`the service returned no thread for ${started.what}`, {
      hint: `follow it with: agents tail ${sessionId}`,
    });
  }
  const t: Turn = { ...started, threadId };
  // A CI job's result: with --json, or under GitHub Actions (--github-output: the ids before the wait).
  const github = flags.wait ? githubFiles(ctx.io.env, flags) : {};
  const report: Reporting = {
    want:
      flags.wait === true &&
      (ctx.globals.json === true || github.summary !== undefined || github.output !== undefined),
    ...github,
  };
  if (github.output !== undefined) {
    const ids = { session_id: sessionId, thread_id: threadId, session_html_url: t.url ?? '' };
    yield { kind: 'github-ids', output: github.output, ids };
  }
  const result = (final: string | null, thread = threadId) =>
    waitResult(t.client, ctx.signal, { sessionId, threadId: thread, url: t.url, final }, (l) =>
      ctx.log.warn(l),
    );
  const wait =
    flags.schema !== undefined ? checkedOutput(ctx, t, flags.schema, report, result) : awaitReply(ctx, t);
  // The notify program is given what --json prints, the CI result: made for it too.
  const withResult = report.want || (flags.wait === true && (await notifyByProgram(ctx, flags.notify)));
  async function* reporting(): AsyncGenerator<SessionItem> {
    try {
      for await (const item of wait) {
        if (item.kind === 'reply' && withResult && item.result === undefined) {
          const r = await result(item.message.message);
          yield { ...item, result: r };
          if (report.want) yield reported(report, t.title, r);
        } else yield item;
      }
    } catch (err) {
      // A wait that timed out still tells the job where the session is, and that it timed out.
      if (withResult && err instanceof CliError && err.exitCode === ExitCode.TIMEOUT) {
        const r = await result(null);
        yield { kind: 'wait-result', result: r };
        if (report.want) yield reported(report, t.title, r);
      }
      throw err;
    }
  }
  yield* notifyEnd(flags.notify, { who: t.who, title: t.title, signal: ctx.signal }, reporting());
  yield { kind: 'next-steps', sessionId, finished: true };
}

function threadWait(ctx: Context, t: Turn, mode: 'wait' | 'follow'): ThreadWait {
  return {
    ...t,
    mode,
    signal: t.deadline.signal,
    schedule: ctx.schedule,
    watch: ctx.caps.spinner,
    // Scripts (--json) get the conversation exactly; people see each message at once.
    policy: ctx.globals.json ? 'hold' : 'show',
    outage: outagePolicy((line) => ctx.log.warn(line), t.deadline.timeoutMs),
  };
}

async function* awaitReply(ctx: Context, t: Turn): AsyncGenerator<SessionItem> {
  yield { kind: 'waiting', label: t.label, sessionId: t.sessionId, url: t.url };
  let final: Message;
  try {
    final = yield* followThread(threadWait(ctx, t, t.flags.wait ? 'wait' : 'follow'));
  } catch (err) {
    yield { kind: 'waited' };
    throw waitError(err, t.deadline, ctx.signal, t.sessionId, t.threadId);
  }
  yield { kind: 'waited' };
  if (t.flags.output !== undefined) await writeOutput('--output', t.flags.output, final.message);
  if (t.flags.wait) yield { kind: 'reply', message: final };
}

/** --output-schema: the answer checked and asked for again; its JSON, or exit 5 with the last errors. */
async function* checkedOutput(
  ctx: Context,
  t: Turn,
  schema: OutputSchema,
  report: Reporting,
  result: (final: string, thread: string) => Promise<WaitResult>,
): AsyncGenerator<SessionItem> {
  const { sessionId, deadline } = t;
  yield { kind: 'waiting', label: t.label, sessionId, url: t.url };
  let threadId = t.threadId;
  let outcome: StructuredResult;
  try {
    const run = structuredReply({
      ...threadWait(ctx, t, 'wait'),
      schema,
      retries: t.flags.schemaRetries ?? DEFAULT_SCHEMA_RETRIES,
      deadline,
      books: await ctx.history(),
    });
    let step = await run.next();
    for (; !step.done; step = await run.next()) {
      if (step.value.kind === 'schema-retry') yield { kind: 'waited' };
      // The turn waited on now is the follow-up's: a time-out's hint resumes that one.
      if (step.value.kind === 'waiting' && step.value.threadId) threadId = step.value.threadId;
      yield step.value;
    }
    outcome = step.value;
  } catch (err) {
    yield { kind: 'waited' };
    // A follow-up the deadline cut short says so itself (it may have been created), naming the session.
    if (err instanceof CliError && err.exitCode === ExitCode.TIMEOUT) throw err;
    throw waitError(err, deadline, ctx.signal, sessionId, threadId);
  }
  yield { kind: 'waited' };
  if (outcome.matched && t.flags.output !== undefined)
    await writeOutput('--output', t.flags.output, `${JSON.stringify(outcome.value)}\n`);
  const r = report.want
    ? { ...(await result(outcome.final.message, outcome.threadId)), ...schemaFields(outcome) }
    : undefined;
  if (outcome.matched)
    yield { kind: 'structured-reply', value: outcome.value, message: outcome.final, result: r };
  else if (r) yield { kind: 'wait-result', result: r };
  if (r) yield reported(report, t.title, r);
  if (outcome.matched) return;
  yield { kind: 'schema-mismatch', problem: outcome.problem };
  throw mismatchError(outcome, sessionId, `see the conversation: agents show ${sessionId}`);
}
