// A bounded wait for a thread's final reply that returns data, not items: the reply with the session's
// pull requests, or "still running" when the time ran out. For callers that are no command (agents mcp):
// nothing is written, and the caller's signal (a cancelled tool call) ends the wait at once.
import type { ApiClient } from '../api/client.js';
import type { Message, PullRequestRef } from '../api/types.js';
import { Follower, isRateLimited } from '../poll/follow.js';
import { isFinalReply } from '../conversation/turn-state.js';
import type { ScheduleOptions } from '../poll/schedule.js';
import { startDeadline } from './deadline.js';

/** How long the read of the pull requests may take once the reply is in hand. */
const PULL_REQUEST_READ_MS = 10_000;

/** What to wait for, and for how long. */
export interface TurnWait {
  client: ApiClient;
  sessionId: string;
  threadId: string;
  /** 0: look once, do not wait. */
  seconds: number;
  /** Ends the wait at once (the caller cancelled); the session goes on. */
  signal: AbortSignal;
  schedule: ScheduleOptions;
  /** Told after each poll the service answered, with the seconds waited so far. */
  onPoll?: (waitedSeconds: number) => void;
  /** Told of a poll that failed and will be tried again (the service failing, the key busy). */
  onTransient?: (err: unknown) => void;
}

/** How a wait ended. `answered`: polls the service answered (0: it never did within the time). */
export type TurnOutcome =
  | { status: 'completed'; final: Message; pullRequests: (string | PullRequestRef)[]; answered: number }
  | { status: 'running'; answered: number; rateLimited: boolean };

/** The thread's final reply, if it is already stored (one request). */
async function finalNow(w: TurnWait, signal: AbortSignal): Promise<Message | undefined> {
  const target = { sessionId: w.sessionId, threadId: w.threadId };
  const page = await w.client.listMessages(
    target,
    { role: 'assistant', type: ['final_message'], direction: 'desc', limit: 1 },
    { signal },
  );
  return page.items.find((m) => isFinalReply(m) && w.client.belongs(target, m));
}

/** The session's pull requests as they stand; none when they cannot be read (the reply matters more). */
export async function pullRequestsOf(
  client: ApiClient,
  sessionId: string,
  stop: AbortSignal,
): Promise<(string | PullRequestRef)[]> {
  try {
    const signal = AbortSignal.any([stop, AbortSignal.timeout(PULL_REQUEST_READ_MS)]);
    const session = await client.getSession(sessionId, { signal, urgent: true });
    return Array.isArray(session.pull_requests) ? session.pull_requests : [];
  } catch {
    return [];
  }
}

/**
 * Waits up to `seconds` for the final reply of the thread. Time running out is an answer (running), not an
 * error; a cancelled signal throws its abort; anything permanent (404, 401) is thrown as it came.
 */
export async function awaitTurn(w: TurnWait): Promise<TurnOutcome> {
  const deadline = startDeadline(w.signal, w.seconds > 0 ? w.seconds * 1000 : undefined);
  const started = performance.now();
  let answered = 0;
  let rateLimited = false;
  const done = async (final: Message): Promise<TurnOutcome> => ({
    status: 'completed',
    final,
    pullRequests: await pullRequestsOf(w.client, w.sessionId, w.signal),
    answered,
  });
  try {
    if (w.seconds <= 0) {
      const final = await finalNow(w, w.signal);
      answered += 1;
      return final ? await done(final) : { status: 'running', answered, rateLimited };
    }
    const follower = new Follower({
      client: w.client,
      target: { sessionId: w.sessionId, threadId: w.threadId },
      types: ['final_message'],
      untilFinal: true,
      signal: deadline.signal,
      schedule: w.schedule,
      // The wait is bounded: ride out a failing service until the time is up, as the CLI's --timeout does.
      maxFailedPolls: Number.POSITIVE_INFINITY,
      onTransientError: (err) => {
        rateLimited = isRateLimited(err);
        w.onTransient?.(err);
      },
    });
    for await (const batch of follower.batches()) {
      answered += 1;
      rateLimited = false;
      const final = batch.find(isFinalReply);
      if (final) return await done(final);
      w.onPoll?.((performance.now() - started) / 1000);
    }
    throw new Error('the poller stopped before the final message');
  } catch (err) {
    if (deadline.expired) return { status: 'running', answered, rateLimited };
    throw err;
  } finally {
    deadline.dispose();
  }
}
