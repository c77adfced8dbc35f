// Turn state, decided once for every reader: which message ends a turn, which turn is the latest, and whether
// it still runs.
import type { Message } from '../api/types.js';

/** A turn's end: the assistant's final message on a thread (a system notice never is, whatever its type). */
export function isFinalReply(m: Message): boolean {
  return m.type === 'final_message' && m.role === 'assistant' && m.chat_thread_id !== null;
}

export interface LatestTurn {
  thread: string;
  state: 'working' | 'finished';
  /** The turn's user message when it was read, else its oldest message read. */
  start: Message;
}

/** Pure: the latest turn of `messages`: the thread of the newest prompt (only the latest can run: a follow-up
 * interrupts the one before), else of the last message on a thread. It has finished once any of its messages
 * is a final reply, wherever it stands (ties on time are listed in any order). */
export function latestTurn(messages: readonly Message[]): LatestTurn | undefined {
  const prompt = messages.findLast((m) => m.role === 'user' && m.chat_thread_id !== null);
  const thread = (prompt ?? messages.findLast((m) => m.chat_thread_id !== null))?.chat_thread_id;
  if (thread === undefined || thread === null) return undefined;
  const mine = messages.filter((m) => m.chat_thread_id === thread);
  const start = mine.find((m) => m.role === 'user') ?? mine[0]!;
  return { thread, state: mine.some(isFinalReply) ? 'finished' : 'working', start };
}

export function latestTurnState(messages: readonly Message[]): LatestTurn['state'] | undefined {
  return latestTurn(messages)?.state;
}

/** Pure: `latest` (the session's latest thread) when `messages` hold no final reply on it. */
export function runningThread(latest: string | undefined, messages: readonly Message[]): string | undefined {
  if (latest === undefined) return undefined;
  return messages.some((m) => m.chat_thread_id === latest && isFinalReply(m)) ? undefined : latest;
}
