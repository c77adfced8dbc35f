// The latest user message of a session (or of one thread): it names the session's latest turn, whose
// thread a wait follows, whose final says whether the agent is still working, and after which a tail
// with --until-final has nothing left to wait for. One query, asked one way, by every command.
import type { ApiClient, CallOptions, ThreadTarget } from '../api/client.js';
import type { Message } from '../api/types.js';
import { isFinalReply } from '../conversation/turn-state.js';

/** The newest user message of `target`, or undefined when none was posted (or none belongs to it). */
export async function latestUserMessage(
  client: ApiClient,
  target: ThreadTarget,
  o: CallOptions,
): Promise<Message | undefined> {
  const page = await client.listMessages(
    target,
    { role: 'user', type: ['message'], direction: 'desc', limit: 1 },
    o,
  );
  // A server that ignored the role filter could answer with a reply; one that ignored the path, another
  // session's prompt: neither names this session's turn.
  return page.items.find((m) => m.role === 'user' && client.belongs(target, m));
}

/**
 * Asks the service for the state of the session's latest turn: 'working' while the newest user message's
 * thread has no final reply, 'finished' once it has; undefined for a session with no message. Two requests.
 */
export async function fetchLatestTurnState(
  client: ApiClient,
  sessionId: string,
  o: CallOptions,
): Promise<'working' | 'finished' | undefined> {
  const thread = (await latestUserMessage(client, { sessionId }, o))?.chat_thread_id;
  if (!thread) return undefined;
  const target = { sessionId, threadId: thread };
  const final = await client.listMessages(
    target,
    { role: 'assistant', type: ['final_message'], direction: 'desc', limit: 1 },
    o,
  );
  const done = final.items.some((m) => isFinalReply(m) && client.belongs(target, m));
  return done ? 'finished' : 'working';
}

/** Whether the session's latest turn is still running: its thread has no final reply yet. */
export async function turnInProgress(client: ApiClient, sessionId: string, o: CallOptions): Promise<boolean> {
  return (await fetchLatestTurnState(client, sessionId, o)) === 'working';
}
