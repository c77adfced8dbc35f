// create and send's --wait and --follow over the core's one wait (core/sessions/await-reply.ts): the run's
// schedule, a spinner's activity, --json's exact conversation, --timeout's outage policy, --output FILE.
import { writeFile } from 'node:fs/promises';
import type { Context } from '../../run/context.js';
import type { ApiClient } from '../../../core/api/client.js';
import type { Message } from '../../../core/api/types.js';
import { fileError } from '../../../core/errors/file-errors.js';
import type { Deadline } from '../../../core/sessions/deadline.js';
import type { SessionItem } from '../../../core/events/session-items.js';
import {
  followThread,
  outagePolicy,
  waitError,
  type ThreadWait,
} from '../../../core/sessions/await-reply.js';

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
    outage: outagePolicy((line) => ctx.log.warn(line), deadline.timeoutMs),
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
