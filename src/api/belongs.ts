// Whether a listed message is of what was asked for. A filter the server ignores would hand a CI job another
// turn's or another session's final reply as if it were the answer, so every message is checked against the
// target (its session; its thread, by path or `thread_id`) before it is shown or waited on.
import type { Message } from './types.js';
import type { ThreadTarget } from './urls.js';

/** Why a message is not of the target: another session, another thread, or a system notice on a thread. */
export type Foreign = 'session' | 'thread' | 'notice';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Pure: undefined when `m` belongs to `target`, else why not. */
export function foreignTo(target: ThreadTarget, m: Message): Foreign | undefined {
  if (!same(m.chat_id, target.sessionId)) return 'session';
  if (target.threadId === undefined) return undefined;
  // A notice has no thread; on a thread's list it is not part of the turn (and never its end).
  if (m.chat_thread_id === null) return 'notice';
  return same(m.chat_thread_id, target.threadId) ? undefined : 'thread';
}

/** What the client tells its owner when it drops a message (a warning, once, in the CLI). */
export interface ForeignNotice {
  why: Exclude<Foreign, 'notice'>;
  target: ThreadTarget;
  message: Message;
}
