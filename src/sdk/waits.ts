// wait, follow and replies over the CLI's one wait (followThread, structuredReply for a schema); errors become
// the hierarchy's, naming the session and thread to resume.
import type { ApiClient } from '../core/api/client.js';
import type { Message, PullRequestRef } from '../core/api/types.js';
import { isRateLimited } from '../core/poll/follow.js';
import { toCliError } from '../core/errors/cli-error.js';
import { TimeoutError, UsageError, type AgentsError } from '../core/errors/agents-error.js';
import { followThread, outagePolicy, resumeCommand, waitError } from '../core/sessions/await-reply.js';
import { startDeadline, type Deadline } from '../core/sessions/deadline.js';
import { finalReply, latestUserMessage } from '../core/sessions/latest.js';
import { sessionAfterTurn } from '../core/sessions/wait-result.js';
import type { OutputSchema } from '../core/sessions/structured-output.js';
import type { SessionItem } from '../core/events/session-items.js';
import type { ScheduleOptions } from '../core/poll/schedule.js';
import { toolSummary } from '../core/conversation/model.js';
import {
  checkedResult,
  mismatchError,
  structuredReply,
  type StructuredResult,
} from '../core/sessions/structured-reply.js';
import { monotonicMs } from '../util/clock.js';
import type { AgentsEvent, Landed, PullRequest, Reply, WaitProgress } from './types.js';
import { errorMessage } from '../util/text.js';

export interface WaitJob {
  client: ApiClient;
  sessionId: string;
  /** The turn; undefined: the session's latest. */
  threadId: string | undefined;
  url: string | undefined;
  /** The caller's signal (NEVER when none was given). */
  stop: AbortSignal;
  timeoutMs: number | undefined;
  emit: (event: AgentsEvent) => void;
  schedule?: ScheduleOptions;
  pullRequests: boolean;
  /** The reply must match it; `retries` follow-ups ask again (0: checked only). */
  check?: { schema: OutputSchema; retries: number };
  onProgress?: (progress: WaitProgress) => void;
  /** For the TimeoutError: polls answered, whether the last was a 429, replies checked against a schema. */
  seen: { answered: number; rateLimited: boolean; attempts: number };
}

/** The signal of a call that was given none. */
export const NEVER: AbortSignal = new AbortController().signal;

/** The turn's thread; given a session alone, that of its latest turn (one request). */
async function turnThread(job: WaitJob, signal: AbortSignal): Promise<string> {
  if (job.threadId !== undefined) return job.threadId;
  const latest = await latestUserMessage(job.client, { sessionId: job.sessionId }, { signal });
  const thread = latest?.chat_thread_id;
  if (!thread) throw new UsageError(`session ${job.sessionId} has no message yet`, 'send it one first');
  job.threadId = thread;
  return thread;
}

/** The follower's options a wait shares: its signal, and how it rides out an outage (the CLI's policy). */
function threadOf(job: WaitJob, deadline: Deadline, threadId: string) {
  const started = monotonicMs();
  return {
    client: job.client,
    sessionId: job.sessionId,
    threadId,
    signal: deadline.signal,
    schedule: job.schedule,
    outage: {
      ...outagePolicy(() => undefined, job.timeoutMs),
      onTransientError: (err: unknown) => {
        job.seen.rateLimited = isRateLimited(err);
        job.emit({
          type: 'poll-failed',
          reason: errorMessage(err),
          rateLimited: job.seen.rateLimited,
          sessionId: job.sessionId,
        });
      },
    },
    onPoll: () => {
      job.seen.answered += 1;
      job.seen.rateLimited = false;
      job.onProgress?.({
        sessionId: job.sessionId,
        threadId: job.threadId ?? threadId,
        waitedMs: monotonicMs() - started,
      });
    },
  };
}

function seenOf(job: WaitJob) {
  const { answered, rateLimited, attempts } = job.seen;
  return { answered, rateLimited, ...(job.check ? { attempts } : {}) };
}

/** Runs `work` within the job's deadline; an error becomes the hierarchy's, naming the turn to resume. */
async function bounded<T>(job: WaitJob, work: (deadline: Deadline) => Promise<T>): Promise<T> {
  // A look (timeout 0) is one request, bounded by the caller's signal alone.
  const deadline = startDeadline(job.stop, job.timeoutMs === 0 ? undefined : job.timeoutMs);
  try {
    return await work(deadline);
  } catch (err) {
    // A look that found no reply, or a schema's follow-up cut short by the deadline (it says itself that
    // it may have been created): kept as they are.
    if (err instanceof TimeoutError && !job.stop.aborted) throw err;
    throw toCliError(waitError(err, deadline, job.stop, job.sessionId, job.threadId, seenOf(job)));
  } finally {
    deadline.dispose();
  }
}

/** Drains a wait's items to its result, telling the program of each follow-up a schema's check sends. */
async function drain<T>(run: AsyncGenerator<SessionItem, T>, job: WaitJob): Promise<T> {
  for (;;) {
    const step = await run.next();
    if (step.done) return step.value;
    const item = step.value;
    if (item.kind === 'schema-retry') {
      job.seen.attempts = item.retry;
      job.emit({ type: 'schema-retry', sessionId: job.sessionId, attempt: item.retry, of: item.of });
    }
    // A schema's follow-up started a new turn: a wait that runs out now names it.
    if (item.kind === 'waiting' && item.threadId) job.threadId = item.threadId;
  }
}

/** A pull request as the library gives it, from the spec's string or the live service's object. */
function pullRequest(p: string | PullRequestRef): PullRequest {
  return typeof p === 'string'
    ? { url: p }
    : { url: p.url, ...(p.status !== undefined ? { status: p.status } : {}) };
}

/** A look (timeout 0): the reply if it is there (checked, never asked for again), else a TimeoutError. */
async function lookOnce(job: WaitJob, deadline: Deadline): Promise<Got> {
  const threadId = await turnThread(job, deadline.signal);
  const target = { sessionId: job.sessionId, threadId };
  const final = await finalReply(job.client, target, { signal: deadline.signal });
  job.seen.answered += 1;
  if (final === undefined) {
    throw new TimeoutError(`no reply yet on session ${job.sessionId} (looked once)`, {
      sessionId: job.sessionId,
      threadId,
      ...seenOf(job),
      hint: `the session goes on; resume with: ${resumeCommand(job.sessionId, threadId)}`,
    });
  }
  if (job.check === undefined) return { final, threadId };
  return checked(checkedResult(final, threadId, job.check.schema), job);
}

/** A reply in hand, and with a schema its value and the tries. */
type Got = { final: Message; threadId: string; output?: unknown; attempts?: number };

/** A checked reply: its value, or the SchemaMismatchError of one that never matched. */
function checked(r: StructuredResult, job: WaitJob): Got {
  if (!r.matched) throw mismatchError(r, job.sessionId);
  return { final: r.final, threadId: r.threadId, output: r.value, attempts: r.attempts };
}

/** Waits for the turn's final reply (checked against the schema, and asked for again, with one). */
export async function waitReply(job: WaitJob): Promise<Reply> {
  const got = await bounded(job, async (deadline): Promise<Got> => {
    if (job.timeoutMs === 0) return lookOnce(job, deadline);
    const threadId = await turnThread(job, deadline.signal);
    const thread = threadOf(job, deadline, threadId);
    if (job.check === undefined) {
      return { final: await drain(followThread({ ...thread, mode: 'wait' }), job), threadId };
    }
    return checked(await drain(structuredReply({ ...thread, ...job.check, deadline }), job), job);
  });
  const after = job.pullRequests
    ? await sessionAfterTurn(job.client, job.sessionId, job.stop, (message) =>
        job.emit({ type: 'warning', message }),
      )
    : { pullRequests: [], url: undefined };
  return {
    sessionId: job.sessionId,
    threadId: got.threadId,
    text: got.final.message,
    message: got.final,
    pullRequests: after.pullRequests.map(pullRequest),
    url: after.url ?? job.url,
    ...(got.attempts !== undefined ? { output: got.output, attempts: got.attempts } : {}),
  };
}

/** A follow's item as the program gets it; undefined for what it did not ask for. */
function landed(item: SessionItem, tools: boolean): Landed | undefined {
  if (item.kind === 'entry' && (item.entry.kind === 'reply' || item.entry.kind === 'final')) {
    const m: Message = item.entry.message;
    const kind = item.entry.kind === 'final' ? 'final' : 'message';
    return { kind, text: m.message, message: m, ...(item.repeats ? { repeats: true } : {}) };
  }
  if (tools && item.kind === 'activity' && item.entry.kind === 'tool') {
    return {
      kind: 'tool',
      // The line the CLI prints for it (`⚙ Read  src/a.ts`); the raw record stays in `message`.
      text: toolSummary(item.entry),
      message: item.entry.message,
      ...(item.entry.tool ? { tool: { ...item.entry.tool } } : {}),
    };
  }
  return undefined;
}

/** Each message of the turn as it lands, the final reply last; the follow's polls stop when it is left. */
export async function* followTurn(job: WaitJob, tools: boolean): AsyncGenerator<Landed, void, undefined> {
  const deadline = startDeadline(job.stop, job.timeoutMs);
  try {
    const threadId = await turnThread(job, deadline.signal);
    const thread = threadOf(job, deadline, threadId);
    // Left early, the loop returns the follow, which stops its polls.
    for await (const item of followThread({ ...thread, mode: 'follow', watch: tools, policy: 'show' })) {
      const out = landed(item, tools);
      if (out !== undefined) yield out;
    }
  } catch (err) {
    throw toCliError(waitError(err, deadline, job.stop, job.sessionId, job.threadId));
  } finally {
    deadline.dispose();
  }
}

/** How one wait of {@link Agents.replies} ended: its reply, or the error it ended with. */
export type Settled<R = Reply> =
  | { ok: true; sessionId: string; threadId: string | undefined; reply: R }
  | { ok: false; sessionId: string; threadId: string | undefined; error: AgentsError };

/** Starts `wait` on each ref and yields each outcome as it settles. */
export async function* settled<R>(
  refs: readonly { sessionId: string; threadId: string | undefined }[],
  wait: (ref: { sessionId: string; threadId: string | undefined }) => Promise<R>,
): AsyncGenerator<Settled<R>, void, undefined> {
  const pending = new Map<number, Promise<[number, Settled<R>]>>();
  refs.forEach((ref, i) => {
    const ids = { sessionId: ref.sessionId, threadId: ref.threadId };
    pending.set(
      i,
      wait(ref).then(
        (reply): [number, Settled<R>] => [i, { ok: true, ...ids, reply }],
        (error: unknown): [number, Settled<R>] => [i, { ok: false, ...ids, error: toCliError(error) }],
      ),
    );
  });
  while (pending.size > 0) {
    const [i, outcome] = await Promise.race(pending.values());
    pending.delete(i);
    yield outcome;
  }
}
