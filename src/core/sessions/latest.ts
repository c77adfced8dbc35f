// The latest user message of a session (or of one thread) names its latest turn: the thread a wait follows,
// whose final says whether the agent is still working. One query, asked one way, by every command.
import type { ApiClient, CallOptions, ThreadTarget } from '../api/client.js';
import type { ListQuery, Message } from '../api/types.js';
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

/** The state of the session's latest turn (undefined: no message yet), in two requests. */
export async function fetchLatestTurnState(
  client: ApiClient,
  sessionId: string,
  o: CallOptions,
): Promise<'working' | 'finished' | undefined> {
  const thread = (await latestUserMessage(client, { sessionId }, o))?.chat_thread_id;
  if (!thread) return undefined;
  return (await finalReply(client, { sessionId, threadId: thread }, o)) ? 'finished' : 'working';
}

/** The thread's final reply, if it is already stored (one request). */
export async function finalReply(
  client: ApiClient,
  target: Required<ThreadTarget>,
  o: CallOptions,
): Promise<Message | undefined> {
  const query: ListQuery = { role: 'assistant', type: ['final_message'], direction: 'desc', limit: 1 };
  const page = await client.listMessages(target, query, o);
  return page.items.find((m) => isFinalReply(m) && client.belongs(target, m));
}

export async function turnInProgress(client: ApiClient, sessionId: string, o: CallOptions): Promise<boolean> {
  return (await fetchLatestTurnState(client, sessionId, o)) === 'working';
}
