import type { Message } from '../api/types.js';

/** One turn of a conversation: the messages of one thread, in order. */
export interface Turn {
  threadId: string | null;
  /** 1 for the session's first turn. */
  number: number;
  messages: Message[];
}

/** Pure: consecutive messages of one thread form a turn, numbered by `threads` (the session's, in order), so
 * that a page or one thread alone keeps its numbers; a thread missing from it takes the previous one's + 1.
 */
export function groupTurns(messages: readonly Message[], threads: readonly string[] = []): Turn[] {
  const turns: Turn[] = [];
  for (const m of messages) {
    const current = turns.at(-1);
    if (current && current.threadId === m.chat_thread_id) {
      current.messages.push(m);
      continue;
    }
    const index = m.chat_thread_id === null ? -1 : threads.indexOf(m.chat_thread_id);
    const number = index >= 0 ? index + 1 : (current?.number ?? 0) + 1;
    turns.push({ threadId: m.chat_thread_id, number, messages: [m] });
  }
  return turns;
}
