// --wait and --follow for create and send: follow one thread to its final message, with progress on
// stderr, and turn a deadline, Ctrl-C or a service that stays down into the contract's 124 / 130 / 1
// with the session id and the command that resumes.
import { writeFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import type { Message, MessageType } from '../api/types.js';
import type { ApiClient } from '../api/client.js';
import { isApiError } from '../api/errors.js';
import { CliError, ExitCode, fromApiError } from '../cli-error.js';
import {
  Follower,
  isFinalReply,
  isRateLimited,
  MAX_FAILED_POLLS,
  type FollowOptions,
} from '../poll/follow.js';
import { classify, streamConversation } from '../conversation/model.js';
import type { Item } from '../output/items.js';
import { activityLine } from '../output/render-conversation.js';
import { fileError } from '../file-errors.js';
import type { Deadline } from './deadline.js';
import type { ReplyFlags } from '../input/reply-flags.js';
import { noteSessionFacts } from '../state/known-sessions.js';
import { githubFiles } from '../config/env.js';
import { githubOutputs, resultOutputs, stepSummary, type WaitResult } from '../output/github.js';
import { waitResult } from './wait-result.js';

/** The command that picks the wait up again. */
export function resumeCommand(sessionId: string, threadId: string | undefined): string {
  return `agents tail ${sessionId}${threadId ? ` --thread ${threadId}` : ''} --until-final`;
}

/**
 * Maps an error thrown while waiting: the run stopped (130, or a silent 0 for a closed pipe), the
 * deadline (124), or a service that kept failing (1), each naming the session and how to resume.
 */
export function waitError(
  err: unknown,
  deadline: Deadline,
  stop: AbortSignal,
  sessionId: string,
  threadId?: string,
): unknown {
  const hint = `the session goes on; resume with: ${resumeCommand(sessionId, threadId)}`;
  if (stop.aborted) {
    if (stop.reason === 'EPIPE')
      return new CliError('stdout closed', { exitCode: ExitCode.OK, silent: true });
    return new CliError(`interrupted while waiting on session ${sessionId}`, {
      exitCode: ExitCode.INTERRUPTED,
      hint,
    });
  }
  if (deadline.expired) {
    return new CliError(`timed out${deadline.after} waiting on session ${sessionId}`, {
      exitCode: ExitCode.TIMEOUT,
      hint,
    });
  }
  if (isApiError(err)) {
    const mapped = fromApiError(err);
    // The service kept failing: the session may still go on, so say which one and how to pick it up.
    if (mapped.exitCode === ExitCode.FAILURE) {
      return new CliError(`${err.message} (gave up waiting on session ${sessionId})`, { hint, cause: err });
    }
    return mapped;
  }
  return err;
}

/**
 * How a wait rides out a service that keeps failing (each failed poll has already used up the client's
 * retries). With --timeout the user has bounded the wait: keep trying until the deadline, as a CI job
 * blocked on a twenty-minute turn should survive a service restart. Without it, give up after
 * MAX_FAILED_POLLS failed polls in a row rather than wait forever. Each failure is a warning on stderr.
 */
export function outagePolicy(
  ctx: Context,
  timeoutMs: number | undefined,
): Pick<FollowOptions, 'maxFailedPolls' | 'onTransientError'> {
  return {
    maxFailedPolls: timeoutMs === undefined ? MAX_FAILED_POLLS : Number.POSITIVE_INFINITY,
    onTransientError: (err, n) => {
      if (isRateLimited(err)) {
        ctx.log.warn(
          "the key's requests are spent for now (429, other processes or machines); still waiting",
        );
        return;
      }
      const what = err instanceof Error ? err.message : String(err);
      const left = timeoutMs === undefined ? ` (attempt ${n} of ${MAX_FAILED_POLLS})` : '';
      ctx.log.warn(`the service is failing: ${what}; still waiting${left}`);
    },
  };
}

export interface ReplyWait {
  client: ApiClient;
  sessionId: string;
  threadId: string;
  /** wait: the final message only; follow: every assistant message up to the final one. */
  mode: 'wait' | 'follow';
  deadline: Deadline;
  /** --wait --output FILE: the final text is also written there. */
  outputFile?: string;
  /** What the progress line says is awaited: "claude", "the reply". */
  label: string;
  /** The session's dashboard address, when known, for the line that says where the wait is. */
  url?: string;
}

/** Follows the thread to its final message; yields what the presenter prints. */
export async function* awaitReply(ctx: Context, w: ReplyWait): AsyncGenerator<Item> {
  await ctx.progress.start(`Waiting for ${w.label}…`, { sessionId: w.sessionId, url: w.url });
  const wanted: MessageType[] = w.mode === 'wait' ? ['final_message'] : ['message', 'final_message'];
  // While a spinner shows, the same polls also bring the turn's messages and tool calls, for the spinner
  // to say what the agent is doing. Only the messages waited for count as the turn moving, so the polls
  // come exactly as often as without them (no extra request); nothing else changes on a pipe or in CI.
  const watch = ctx.caps.spinner;
  const follower = new Follower({
    client: w.client,
    target: { sessionId: w.sessionId, threadId: w.threadId },
    types: watch ? ['message', 'final_message', 'tool_call'] : wanted,
    untilFinal: true,
    signal: w.deadline.signal,
    schedule: ctx.schedule,
    ...(watch ? { flowing: (m: Message) => wanted.includes(m.type) } : {}),
    ...outagePolicy(ctx, w.deadline.timeoutMs),
  });
  let final: Message | undefined;
  try {
    if (w.mode === 'wait') {
      for await (const m of follower) {
        if (isFinalReply(m)) final = m;
        else ctx.progress.activity(activityLine(classify(m)));
      }
    } else {
      // Scripts (--json) get the conversation exactly; people see each message at once.
      const policy = ctx.globals.json ? 'hold' : 'show';
      for await (const e of streamConversation(follower.batches(), policy)) {
        if (e.kind !== 'final') ctx.progress.activity(activityLine(e));
        // Tool calls were read for the spinner alone.
        if (e.kind === 'tool' || e.kind === 'notice') continue;
        if (e.kind === 'final') final = e.message;
        yield { kind: 'entry', entry: e, repeats: e.repeats };
      }
    }
  } catch (err) {
    throw waitError(err, w.deadline, ctx.signal, w.sessionId, w.threadId);
  } finally {
    ctx.progress.stop();
  }
  if (final === undefined) throw new CliError('the follow ended before the final message');
  if (w.outputFile !== undefined) {
    try {
      await writeFile(w.outputFile, final.message);
    } catch (err) {
      throw fileError('--output', w.outputFile, 'write', err);
    }
  }
  if (w.mode === 'wait') yield { kind: 'reply', message: final };
}

/** Who is waited on and for what, as a notification says it. */
export interface NotifyAbout {
  /** "claude", "the agent". */
  who: string;
  /** The session's title, when known. */
  title?: string;
  /** The run's stop signal: a wait the user stopped is not announced (they are right there). */
  signal: AbortSignal;
}

/**
 * --notify: the items of a wait, then a notification that it ended: the reply arrived, or the wait timed
 * out or failed (not when the user stopped it). Without `on`, the items alone.
 */
export async function* notifyEnd(
  on: boolean,
  about: NotifyAbout,
  items: AsyncIterable<Item>,
): AsyncGenerator<Item> {
  if (!on) {
    yield* items;
    return;
  }
  const what = about.title ? `: ${about.title}` : '';
  try {
    yield* items;
  } catch (err) {
    if (!about.signal.aborted) {
      const timedOut = err instanceof CliError && err.exitCode === ExitCode.TIMEOUT;
      const body = `${timedOut ? 'timed out waiting for' : 'stopped waiting for'} ${about.who}${what}`;
      yield { kind: 'notify', notification: { title: 'agents', body } };
    }
    throw err;
  }
  yield { kind: 'notify', notification: { title: 'agents', body: `${about.who} replied${what}` } };
}

/** What create and send know once the service has taken their message. */
export interface TurnStarted {
  client: ApiClient;
  profile: string;
  sessionId: string;
  /** The new turn's thread, when the answer named one. */
  threadId: string | undefined;
  flags: ReplyFlags;
  deadline: Deadline;
  /** For --notify: who replies, and the session's title when known. */
  who: string;
  title?: string;
  /** What the progress line says is awaited, and the session's address (see ReplyWait). */
  label: string;
  url?: string;
  /** What the answer was, for the error when it named no thread: "session <id>", "the follow-up on …". */
  what: string;
}

/**
 * The rest of a create or send, once the turn has started: without --wait/--follow the next steps; with
 * them, the wait (and --notify), the session noted as finished, then the next steps.
 */
export async function* afterPost(ctx: Context, t: TurnStarted): AsyncGenerator<Item> {
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
  const wantResult =
    flags.wait === true &&
    (ctx.globals.json === true || github.summary !== undefined || github.output !== undefined);
  if (github.output !== undefined) {
    const outputs = { session_id: sessionId, thread_id: threadId, session_html_url: t.url ?? '' };
    yield { kind: 'github', output: github.output, text: githubOutputs(outputs) };
  }
  const result = (final: string | null) =>
    waitResult(t.client, ctx.signal, { sessionId, threadId, url: t.url, final }, (l) => ctx.log.warn(l));
  const report = function* (r: WaitResult): Generator<Item> {
    if (github.summary !== undefined)
      yield { kind: 'github', output: github.summary, text: stepSummary(r, t.title) };
    if (github.output !== undefined)
      yield { kind: 'github', output: github.output, text: githubOutputs(resultOutputs(r)) };
  };
  const items = notifyEnd(
    flags.notify === true,
    { who: t.who, title: t.title, signal: ctx.signal },
    awaitReply(ctx, {
      client: t.client,
      sessionId,
      threadId,
      mode: flags.wait ? 'wait' : 'follow',
      deadline: t.deadline,
      outputFile: flags.output,
      label: t.label,
      url: t.url,
    }),
  );
  try {
    for await (const item of items) {
      if (item.kind === 'reply' && wantResult) {
        const r = await result(item.message.message);
        yield { ...item, result: r };
        yield* report(r);
      } else yield item;
    }
  } catch (err) {
    // A wait that timed out still tells the job where the session is, and that it timed out.
    if (wantResult && err instanceof CliError && err.exitCode === ExitCode.TIMEOUT) {
      const r = await result(null);
      yield { kind: 'wait-result', result: r };
      yield* report(r);
    }
    throw err;
  }
  await noteSessionFacts(ctx.state, t.profile, [{ id: sessionId, state: 'finished' }]);
  yield { kind: 'next-steps', sessionId, finished: true };
}
