// A wait on one thread (--wait, --follow, tail --until-final, the library's waits) to its final message; a
// deadline, Ctrl-C or a service that stays down becomes 124 / 130 / 1, naming the command that resumes.
import type { Message, MessageType } from '../api/types.js';
import type { ApiClient } from '../api/client.js';
import { isHttpError, type HttpError } from '../api/errors.js';
import { CliError, ExitCode, fromHttpError } from '../errors/cli-error.js';
import { AbortError, TimeoutError, type TimeoutErrorInit } from '../errors/agents-error.js';
import { Follower, isRateLimited, MAX_FAILED_POLLS, type FollowOptions } from '../poll/follow.js';
import { streamConversation } from '../conversation/model.js';
import { RATE_LIMITED_LINE, failingLine } from '../events/outage-lines.js';
import type { ScheduleOptions } from '../poll/schedule.js';
import type { Deadline } from './deadline.js';
import type { SessionItem } from '../events/session-items.js';
import { errorMessage } from '../../util/text.js';

export function resumeCommand(sessionId: string, threadId: string | undefined): string {
  return `agents tail ${sessionId}${threadId ? ` --thread ${threadId}` : ''} --until-final`;
}

/** An error while waiting: stopped (130, or 0 for a closed pipe), the deadline (124), an outage (1). */
export function waitError(
  err: unknown,
  deadline: Deadline,
  stop: AbortSignal,
  sessionId: string,
  threadId?: string,
  seen?: Pick<TimeoutErrorInit, 'answered' | 'rateLimited' | 'attempts'>,
): unknown {
  const hint = `the session goes on; resume with: ${resumeCommand(sessionId, threadId)}`;
  if (stop.aborted) {
    if (stop.reason === 'EPIPE')
      return new CliError('stdout closed', { exitCode: ExitCode.OK, silent: true });
    return new AbortError(`interrupted while waiting on session ${sessionId}`, { hint, cause: err });
  }
  if (deadline.expired) {
    const init = { sessionId, threadId, ...seen, hint, cause: err };
    return new TimeoutError(`timed out${deadline.after} waiting on session ${sessionId}`, init);
  }
  return isHttpError(err) ? gaveUp(err, ` on session ${sessionId}`, hint) : err;
}

/** An HTTP error that ended a wait; a service that kept failing is said with how to resume (it goes on). */
export function gaveUp(err: HttpError, on: string, hint: string): CliError {
  const mapped = fromHttpError(err);
  if (mapped.exitCode !== ExitCode.FAILURE) return mapped;
  return new CliError(`${err.message} (gave up waiting${on})`, { hint, cause: err });
}

/** A failing service is ridden out until the deadline under --timeout (a CI job outlives a restart). */
export function outagePolicy(
  warn: (line: string) => void,
  timeoutMs: number | undefined,
): Pick<FollowOptions, 'maxFailedPolls' | 'onTransientError'> {
  return {
    maxFailedPolls: timeoutMs === undefined ? MAX_FAILED_POLLS : Number.POSITIVE_INFINITY,
    onTransientError: (err, n) => {
      const what = errorMessage(err);
      const left = timeoutMs === undefined ? ` (attempt ${n} of ${MAX_FAILED_POLLS})` : '';
      warn(isRateLimited(err) ? RATE_LIMITED_LINE : failingLine(what, left));
    },
  };
}

/** A wait on one thread, with no Context (the MCP server and the Action wait this way too). */
export interface ThreadWait {
  client: ApiClient;
  sessionId: string;
  threadId: string;
  /** wait: the final message only; follow: every assistant message up to the final one. */
  mode: 'wait' | 'follow';
  signal: AbortSignal;
  schedule?: ScheduleOptions;
  /** Also read messages and tool calls, for `activity` items; only those waited for set the poll's pace. */
  watch?: boolean;
  /** follow: hold the final's repeat of a message (scripts) or show each message at once (people). */
  policy?: 'hold' | 'show';
  outage?: Pick<FollowOptions, 'maxFailedPolls' | 'onTransientError'>;
  /** Told after each poll the service answered (an MCP call's progress, and whether it ever answered). */
  onPoll?: () => void;
}

/** The thread's final message, yielding `activity` (with `watch`) and, following, an `entry` per message. */
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
  const polls = (async function* () {
    for await (const batch of follower.batches()) {
      w.onPoll?.();
      yield batch;
    }
  })();
  let final: Message | undefined;
  // A wait shows activity at once: nothing of it is printed, so nothing is held for a final to drop.
  const policy = w.mode === 'follow' ? (w.policy ?? 'show') : 'show';
  for await (const e of streamConversation(polls, policy)) {
    if (e.kind === 'final') final = e.message;
    else yield { kind: 'activity', entry: e };
    // Tool calls and notices were read for the spinner alone.
    if (w.mode === 'follow' && e.kind !== 'tool' && e.kind !== 'notice') {
      yield { kind: 'entry', entry: e, repeats: e.repeats };
    }
  }
  if (final === undefined) throw new CliError('the follow ended before the final message');
  return final;
}

/** Pure: what --json prints for the turn that `item` ends, if it is such an item. */
function turnResult(item: SessionItem): unknown {
  if (item.kind === 'wait-result') return item.result;
  const ends = item.kind === 'reply' || item.kind === 'structured-reply';
  return ends ? { ...item.message, ...item.result } : undefined;
}

/** The items, then `wait-ended` with the turn's result (--notify); not for a wait the user stopped. */
export async function* notifyEnd(
  flag: boolean | undefined,
  about: { who: string; title?: string; signal: AbortSignal },
  items: AsyncIterable<SessionItem>,
): AsyncGenerator<SessionItem> {
  let result: unknown;
  const ended = (outcome: 'replied' | 'timed-out' | 'failed'): SessionItem[] => {
    if (flag === false) return [];
    return [{ kind: 'wait-ended', who: about.who, title: about.title, outcome, notify: flag, result }];
  };
  try {
    for await (const item of items) {
      result = turnResult(item) ?? result;
      yield item;
    }
  } catch (err) {
    const timedOut = err instanceof CliError && err.exitCode === ExitCode.TIMEOUT;
    if (!about.signal.aborted) yield* ended(timedOut ? 'timed-out' : 'failed');
    throw err;
  }
  yield* ended('replied');
}
