// The rest of a create or send once the service has taken the message: the next steps, or the wait (and
// --notify), the CI job's result (--json, GitHub's step summary and outputs), and with --output-schema the
// answer checked and asked for again.
import { checkedOutput } from './checked-output.js';
import type { Context } from '../../run/context.js';
import { CliError, ExitCode } from '../../../core/errors/cli-error.js';
import { githubFiles } from '../../../core/config/env.js';
import { notifyEnd } from '../../../core/sessions/await-reply.js';
import { awaitReply } from './reply-wait.js';
import { reportedResult, type Reporting, type TurnStarted } from './turn-started.js';
import type { SessionItem } from '../../../core/events/session-items.js';
import { waitResult } from '../../../core/sessions/wait-result.js';
import type { WaitResult } from '../../../core/events/ci-result.js';
import { notifyHow } from '../../../core/config/notify-setting.js';

/** Whether this run's notification is the `notify` setting's program (a bad setting: no, notify() says why). */
async function notifyByProgram(ctx: Context, flag: boolean | undefined): Promise<boolean> {
  if (flag === false) return false;
  try {
    return notifyHow(flag, (await ctx.settings(['notify'])).notify).kind === 'program';
  } catch {
    return false;
  }
}

/**
 * The rest of a create or send, once the turn has started: without --wait/--follow the next steps; with
 * them, the wait (and --notify; the client records the turn's end for `agents ls`), then the next steps.
 */
export async function* afterPost(ctx: Context, t: TurnStarted): AsyncGenerator<SessionItem> {
  const { flags, sessionId, threadId } = t;
  if (flags.wait !== true && flags.follow !== true) {
    yield { kind: 'next-steps', sessionId, finished: false };
    return;
  }
  if (threadId === undefined) {
    throw new CliError(`the service returned no thread for ${t.what}`, {
      hint: `follow it with: agents tail ${sessionId}`,
    });
  }
  // A CI job's result: with --json, or under GitHub Actions (its step summary, and with --github-output
  // its step outputs: the ids before the wait, the rest after it).
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
  const reported = (r: WaitResult): SessionItem => reportedResult(report, t.title, r);
  let wait: AsyncIterable<SessionItem>;
  if (flags.schema !== undefined) {
    wait = checkedOutput(ctx, { ...t, threadId, schema: flags.schema, result, report });
  } else {
    wait = awaitReply(ctx, {
      client: t.client,
      sessionId,
      threadId,
      mode: flags.wait ? 'wait' : 'follow',
      deadline: t.deadline,
      outputFile: flags.output,
      label: t.label,
      url: t.url,
    });
  }
  // The notify program is given what --json prints, the CI result: made for it too.
  const withResult = report.want || (flags.wait === true && (await notifyByProgram(ctx, flags.notify)));
  async function* reporting(): AsyncGenerator<SessionItem> {
    try {
      for await (const item of wait) {
        if (item.kind === 'reply' && withResult && item.result === undefined) {
          const r = await result(item.message.message);
          yield { ...item, result: r };
          if (report.want) yield reported(r);
        } else yield item;
      }
    } catch (err) {
      // A wait that timed out still tells the job where the session is, and that it timed out.
      if (withResult && err instanceof CliError && err.exitCode === ExitCode.TIMEOUT) {
        const r = await result(null);
        yield { kind: 'wait-result', result: r };
        if (report.want) yield reported(r);
      }
      throw err;
    }
  }
  yield* notifyEnd(flags.notify, { who: t.who, title: t.title, signal: ctx.signal }, reporting());
  yield { kind: 'next-steps', sessionId, finished: true };
}
