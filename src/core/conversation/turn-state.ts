// Turn state, decided once: which message ends a turn, which turn is the latest, and whether it still runs.
// Pure; every reader (show, tail, chat, the poller, the presenter) asks here instead of deciding itself.
import type { Message } from '../api/types.js';

/** A turn's end: the assistant's final message on a thread (a system notice never is, whatever its type). */
export function isFinalReply(m: Message): boolean {
  return m.type === 'final_message' && m.role === 'assistant' && m.chat_thread_id !== null;
}

/** The latest turn among some messages: its thread, whether it has ended, and its first message read. */
export interface LatestTurn {
  thread: string;
  state: 'working' | 'finished';
  /** The turn's user message when it was read, else its oldest message read. */
  start: Message;
}

/**
 * Pure: the latest turn of `messages` (any order the reader has): the thread of the newest user message
 * (a prompt starts a turn, and only the latest can run: a follow-up interrupts the one before), else, with
 * no prompt among them, the thread of the last message of a thread. It has finished once any of its
 * messages is a final reply, wherever that final stands among them (ties on time are listed in any order).
 */
export function latestTurn(messages: readonly Message[]): LatestTurn | undefined {
  const prompt = messages.findLast((m) => m.role === 'user' && m.chat_thread_id !== null);
  const thread = (prompt ?? messages.findLast((m) => m.chat_thread_id !== null))?.chat_thread_id;
  if (thread === undefined || thread === null) return undefined;
  const mine = messages.filter((m) => m.chat_thread_id === thread);
  const start = mine.find((m) => m.role === 'user') ?? mine[0]!;
  return { thread, state: mine.some(isFinalReply) ? 'finished' : 'working', start };
}

/** Pure: the state of the latest turn among `messages`; undefined when there is no turn. */
export function latestTurnState(messages: readonly Message[]): LatestTurn['state'] | undefined {
  return latestTurn(messages)?.state;
}

/**
 * Pure: `latest` (the session's latest thread, known from every user message of the session) when
 * `messages` hold no final reply on it. Only the latest can be running: a follow-up interrupts the turn
 * before it.
 */
export function runningThread(latest: string | undefined, messages: readonly Message[]): string | undefined {
  if (latest === undefined) return undefined;
  return messages.some((m) => m.chat_thread_id === latest && isFinalReply(m)) ? undefined : latest;
}
