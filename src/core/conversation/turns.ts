// Raw messages, in storage order, grouped into the turns a person reads: one turn per thread.
import type { Message } from '../api/types.js';

/** One turn of a conversation: the messages of one thread, in order. */
export interface Turn {
  threadId: string | null;
  /** 1 for the session's first turn. */
  number: number;
  messages: Message[];
}

/**
 * Pure: consecutive messages of one thread form a turn. Turns are numbered by the session, not by what is
 * shown: `threads` lists the session's threads in order (the first is turn 1), so a page that starts
 * part-way through, or one thread alone, keeps its numbers. A thread missing from it takes the number
 * after the previous turn's.
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
