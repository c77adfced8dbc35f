// --wait and --follow for create and send: follow one thread to its final message, yielding items for the
// progress on stderr, and turn a deadline, Ctrl-C or a service that stays down into the contract's
// 124 / 130 / 1 with the session id and the command that resumes.
import { writeFile } from 'node:fs/promises';
import type { Context } from '../../cli/run/context.js';
import type { Message, MessageType } from '../api/types.js';
import type { ApiClient } from '../api/client.js';
import { isHttpError } from '../api/errors.js';
import { CliError, ExitCode, fromHttpError } from '../errors/cli-error.js';
import { AbortError, TimeoutError, type TimeoutErrorInit } from '../errors/agents-error.js';
import { isFinalReply } from '../conversation/turn-state.js';
import { Follower, isRateLimited, MAX_FAILED_POLLS, type FollowOptions } from '../poll/follow.js';
import { classify, streamConversation } from '../conversation/model.js';
import { RATE_LIMITED_LINE, failingLine } from '../events/outage-lines.js';
import type { ScheduleOptions } from '../poll/schedule.js';
import { fileError } from '../errors/file-errors.js';
import type { Deadline } from './deadline.js';
import type { SessionItem } from '../events/session-items.js';

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
  /** What the wait saw, for the TimeoutError of a deadline that ran out. */
  seen?: Pick<TimeoutErrorInit, 'answered' | 'rateLimited' | 'attempts'>,
): unknown {
  const hint = `the session goes on; resume with: ${resumeCommand(sessionId, threadId)}`;
  if (stop.aborted) {
    if (stop.reason === 'EPIPE')
      return new CliError('stdout closed', { exitCode: ExitCode.OK, silent: true });
    return new AbortError(`interrupted while waiting on session ${sessionId}`, { hint, cause: err });
  }
  if (deadline.expired) {
    return new TimeoutError(`timed out${deadline.after} waiting on session ${sessionId}`, {
      sessionId,
      threadId,
      ...seen,
      hint,
      cause: err,
    });
  }
  if (isHttpError(err)) {
    const mapped = fromHttpError(err);
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
        ctx.log.warn(RATE_LIMITED_LINE);
        return;
      }
      const what = err instanceof Error ? err.message : String(err);
      const left = timeoutMs === undefined ? ` (attempt ${n} of ${MAX_FAILED_POLLS})` : '';
      ctx.log.warn(failingLine(what, left));
    },
  };
}

/** What a wait on one thread needs, with no Context: the MCP server and the Action wait this way too. */
export interface ThreadWait {
  client: ApiClient;
  sessionId: string;
  threadId: string;
  /** wait: the final message only; follow: every assistant message up to the final one. */
  mode: 'wait' | 'follow';
  signal: AbortSignal;
  schedule?: ScheduleOptions;
  /**
   * Also read the turn's messages and tool calls, for `activity` items (a spinner says what the agent
   * does). Only the messages waited for count as the turn moving, so the polls come exactly as often.
   */
  watch?: boolean;
  /** follow: hold the final's repeat of a message (scripts) or show each message at once (people). */
  policy?: 'hold' | 'show';
  /** How an outage is ridden out (see outagePolicy). */
  outage?: Pick<FollowOptions, 'maxFailedPolls' | 'onTransientError'>;
  /** Told after each poll the service answered (an MCP call's progress, and whether it ever answered). */
  onPoll?: () => void;
}

/** The follower's polls, `onPoll` told of each once it is in hand. */
async function* told(
  batches: AsyncIterable<Message[]>,
  onPoll: (() => void) | undefined,
): AsyncGenerator<Message[]> {
  for await (const batch of batches) {
    onPoll?.();
    yield batch;
  }
}

/**
 * Follows the thread to its final message and returns it. Yields `activity` items (with `watch`) and, when
 * following, an `entry` for each message as it lands. Errors are thrown as they came (see waitError).
 */
export async function* followThread(w: ThreadWait): AsyncGenerator<SessionItem, Message> {
  const wanted: MessageType[] = w.mode === 'wait' ? ['final_message'] : ['message', 'final_message'];
  const follower = new Follower({
    client: w.client,
    target: { sessionId: w.sessionId, threadId: w.threadId },
    types: w.watch ? ['message', 'final_message', 'tool_call'] : wanted,
    untilFinal: true,
    signal: w.signal,
    ...(w.schedule ? { schedule: w.schedule } : {}),
    ...(w.watch ? { flowing: (m: Message) => wanted.includes(m.type) } : {}),
    ...w.outage,
  });
  const polls = told(follower.batches(), w.onPoll);
  let final: Message | undefined;
  if (w.mode === 'wait') {
    for await (const batch of polls) {
      for (const m of batch) {
        if (isFinalReply(m)) final = m;
        else yield { kind: 'activity', entry: classify(m) };
      }
    }
  } else {
    for await (const e of streamConversation(polls, w.policy ?? 'show')) {
      if (e.kind !== 'final') yield { kind: 'activity', entry: e };
      // Tool calls were read for the spinner alone.
      if (e.kind === 'tool' || e.kind === 'notice') continue;
      if (e.kind === 'final') final = e.message;
      yield { kind: 'entry', entry: e, repeats: e.repeats };
    }
  }
  if (final === undefined) throw new CliError('the follow ended before the final message');
  return final;
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

/** The ThreadWait of a command's run: its schedule, a spinner's activity, the outage policy of --timeout. */
export function threadWait(
  ctx: Context,
  w: Omit<ThreadWait, 'signal' | 'schedule' | 'watch' | 'policy' | 'outage'>,
  deadline: Deadline,
): ThreadWait {
  return {
    ...w,
    signal: deadline.signal,
    schedule: ctx.schedule,
    watch: ctx.caps.spinner,
    // Scripts (--json) get the conversation exactly; people see each message at once.
    policy: ctx.globals.json ? 'hold' : 'show',
    outage: outagePolicy(ctx, deadline.timeoutMs),
  };
}

/**
 * Follows the thread to its final message, between a `waiting` and a `waited` item; yields what the
 * presenter prints, the reply last (wait mode), and maps an error to the contract's (waitError).
 */
export async function* awaitReply(ctx: Context, w: ReplyWait): AsyncGenerator<SessionItem> {
  yield { kind: 'waiting', label: w.label, sessionId: w.sessionId, url: w.url };
  let final: Message;
  try {
    final = yield* followThread(threadWait(ctx, w, w.deadline));
  } catch (err) {
    yield { kind: 'waited' };
    throw waitError(err, w.deadline, ctx.signal, w.sessionId, w.threadId);
  }
  yield { kind: 'waited' };
  if (w.outputFile !== undefined) await writeOutput(w.outputFile, final.message);
  if (w.mode === 'wait') yield { kind: 'reply', message: final };
}

/** --output FILE: what stdout gets, also in the file. */
export async function writeOutput(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (err) {
    throw fileError('--output', path, 'write', err);
  }
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

/** Pure: what --json prints for the turn that `item` ends, if it is such an item. */
export function turnResult(item: SessionItem): unknown {
  switch (item.kind) {
    case 'reply':
      return item.result ? { ...item.message, ...item.result } : item.message;
    case 'structured-reply':
      return { ...item.message, ...item.result };
    case 'wait-result':
      return item.result;
    default:
      return undefined;
  }
}

/**
 * The items of a wait, then that it ended (for --notify and the `notify` setting): the reply arrived, or
 * the wait timed out or failed (not when the user stopped it), with the turn's result. --no-notify (`flag`
 * false): the items alone.
 */
export async function* notifyEnd(
  flag: boolean | undefined,
  about: NotifyAbout,
  items: AsyncIterable<SessionItem>,
): AsyncGenerator<SessionItem> {
  if (flag === false) {
    yield* items;
    return;
  }
  const { who, title } = about;
  let result: unknown;
  const ended = (outcome: 'replied' | 'timed-out' | 'failed'): SessionItem => ({
    kind: 'wait-ended',
    who,
    title,
    outcome,
    notify: flag,
    result,
  });
  try {
    for await (const item of items) {
      result = turnResult(item) ?? result;
      yield item;
    }
  } catch (err) {
    if (!about.signal.aborted) {
      const timedOut = err instanceof CliError && err.exitCode === ExitCode.TIMEOUT;
      yield ended(timedOut ? 'timed-out' : 'failed');
    }
    throw err;
  }
  yield ended('replied');
}
