// Whether a listed message is of what was asked for: a filter the server ignores must not hand a job another
// session's or turn's reply. A message that leaves out its session or thread is the list's own (the list was
// asked for it; Blocks' CI mock sends a final without `chat_id`).
import type { ListedMessage, Message } from './types.js';
import type { ThreadTarget } from './urls.js';

/** Another session, another thread, or a system notice on a thread. */
export type Foreign = 'session' | 'thread' | 'notice';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Pure: why `m` is not of `target`, if it is not. */
export function foreignTo(target: ThreadTarget, m: ListedMessage): Foreign | undefined {
  if (m.chat_id !== undefined && !same(m.chat_id, target.sessionId)) return 'session';
  if (target.threadId === undefined) return undefined;
  // Typed as always there, but a list may leave it out (the message schema takes that): then it is the thread's.
  const thread = m.chat_thread_id as string | null | undefined;
  if (thread === undefined) return undefined;
  // A notice has no thread; on a thread's list it is not part of the turn (and never its end).
  if (thread === null) return 'notice';
  return same(thread, target.threadId) ? undefined : 'thread';
}

/** What the client tells its owner when it drops a message. */
export type ForeignNotice = { why: Exclude<Foreign, 'notice'>; target: ThreadTarget; message: Message };
