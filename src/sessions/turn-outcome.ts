// A bounded wait for a turn's reply that returns data, not items, over the CLI's own wait (followThread)
// and schema check (structuredReply): for callers that are no command (agents mcp). Time running out is
// "still running"; the caller's signal (a cancelled tool call) ends the wait at once.
import type { ApiClient } from '../api/client.js';
import type { Message, PullRequestRef } from '../api/types.js';
import { CliError, ExitCode } from '../errors/cli-error.js';
import { isRateLimited } from '../poll/follow.js';
import { isFinalReply } from '../conversation/turn-state.js';
import type { ScheduleOptions } from '../poll/schedule.js';
import type { AnswerSchema } from './answer-json.js';
import { followThread } from './await-reply.js';
import { startDeadline, type Deadline } from './deadline.js';
import type { Bookkeeping } from './post.js';
import { checkedResult, structuredReply, type StructuredResult } from './structured-reply.js';
import type { SessionItem } from '../items/session-items.js';
import { sessionAfterTurn } from './wait-result.js';
import { monotonicMs } from '../util/clock.js';

/** What to wait for, and for how long. */
export interface TurnWait {
  client: ApiClient;
  sessionId: string;
  threadId: string;
  /** 0: look once, do not wait (and send nothing). */
  seconds: number;
  /** Ends the wait at once (the caller cancelled); the session goes on. */
  signal: AbortSignal;
  schedule: ScheduleOptions;
  /** Told after each poll the service answered, with the seconds waited so far. */
  onPoll?: (waitedSeconds: number) => void;
  /** Told of a poll that failed and will be tried again (the service failing, the key busy). */
  onTransient?: (err: unknown) => void;
  /** Told when the session's pull requests could not be read (the reply is returned all the same). */
  warn?: (line: string) => void;
  /** The reply must match this schema: it is checked, and asked for again up to `retries` times. */
  check?: { schema: AnswerSchema; retries: number; books?: Bookkeeping };
}

/**
 * How a wait ended. `answered`: polls the service answered (0: it never did within the time). `threadId`:
 * the turn the outcome is about (a follow-up's, once the schema's check asked again). `checked`: with a
 * schema, the check of the reply (`final` is the last reply checked).
 */
export type TurnOutcome =
  | {
      status: 'completed';
      threadId: string;
      final: Message;
      pullRequests: (string | PullRequestRef)[];
      answered: number;
      checked?: StructuredResult;
    }
  | { status: 'running'; threadId: string; answered: number; rateLimited: boolean; attempts: number };

/** What the wait saw so far: for the outcome when its time runs out. */
interface Seen {
  answered: number;
  rateLimited: boolean;
  threadId: string;
  /** Replies checked against the schema. */
  attempts: number;
}

/** The thread's final reply, if it is already stored (one request). */
async function finalNow(w: TurnWait, seen: Seen): Promise<Message | undefined> {
  const target = { sessionId: w.sessionId, threadId: w.threadId };
  const page = await w.client.listMessages(
    target,
    { role: 'assistant', type: ['final_message'], direction: 'desc', limit: 1 },
    { signal: w.signal },
  );
  seen.answered += 1;
  return page.items.find((m) => isFinalReply(m) && w.client.belongs(target, m));
}

/** A reply in hand: the last one waited for, its thread, and with a schema its check. */
interface Got {
  final: Message;
  threadId: string;
  checked?: StructuredResult;
}

/** Waits for the reply (checked, and asked for again, with a schema) within the deadline. */
async function waitFor(w: TurnWait, deadline: Deadline, seen: Seen): Promise<Got> {
  const started = monotonicMs();
  const thread = {
    client: w.client,
    sessionId: w.sessionId,
    threadId: w.threadId,
    signal: deadline.signal,
    schedule: w.schedule,
    // The wait is bounded: ride out a failing service until the time is up, as the CLI's --timeout does.
    outage: {
      maxFailedPolls: Number.POSITIVE_INFINITY,
      onTransientError: (err: unknown) => {
        seen.rateLimited = isRateLimited(err);
        w.onTransient?.(err);
      },
    },
    onPoll: () => {
      seen.answered += 1;
      seen.rateLimited = false;
      w.onPoll?.((monotonicMs() - started) / 1000);
    },
  };
  if (w.check === undefined) {
    return { final: await drain(followThread({ ...thread, mode: 'wait' }), seen), threadId: w.threadId };
  }
  const { schema, retries, books } = w.check;
  const checked = await drain(structuredReply({ ...thread, schema, retries, deadline, books }), seen);
  return { final: checked.final, threadId: checked.threadId, checked };
}

/** Looks once for the reply (and checks it, with a schema: nothing is sent). */
async function lookOnce(w: TurnWait, seen: Seen): Promise<Got | undefined> {
  const final = await finalNow(w, seen);
  if (final === undefined) return undefined;
  const checked = w.check ? checkedResult(final, w.threadId, w.check.schema) : undefined;
  return { final, threadId: w.threadId, ...(checked ? { checked } : {}) };
}

/** Runs a wait's items to its end, keeping the turn it is on and the replies checked. */
async function drain<T>(run: AsyncGenerator<SessionItem, T>, seen: Seen): Promise<T> {
  for (;;) {
    const step = await run.next();
    if (step.done) return step.value;
    if (step.value.kind === 'schema-retry') seen.attempts += 1;
    if (step.value.kind === 'waiting' && step.value.threadId) seen.threadId = step.value.threadId;
  }
}

/**
 * Waits up to `seconds` for the final reply of the thread; with `check`, until a reply matches or the
 * retries are spent. Time running out is an answer (running), not an error; a cancelled signal throws its
 * abort; anything permanent (404, 401), or a follow-up the time cut short, is thrown as it came.
 */
export async function awaitTurn(w: TurnWait): Promise<TurnOutcome> {
  const deadline = startDeadline(w.signal, w.seconds > 0 ? w.seconds * 1000 : undefined);
  const seen: Seen = { answered: 0, rateLimited: false, threadId: w.threadId, attempts: 0 };
  const running = (): TurnOutcome => ({ status: 'running', ...seen });
  try {
    const got = w.seconds > 0 ? await waitFor(w, deadline, seen) : await lookOnce(w, seen);
    if (got === undefined) return running();
    const after = await sessionAfterTurn(w.client, w.sessionId, w.signal, w.warn ?? (() => undefined));
    return { status: 'completed', ...got, pullRequests: after.pullRequests, answered: seen.answered };
  } catch (err) {
    // A follow-up the time cut short may have been created: that is an error (it says so), not "running".
    const postCut = err instanceof CliError && err.exitCode === ExitCode.TIMEOUT;
    if (deadline.expired && !postCut) return running();
    throw err;
  } finally {
    deadline.dispose();
  }
}
