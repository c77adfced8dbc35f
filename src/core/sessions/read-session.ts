// A session and its conversation as show and a resumed chat read it, cut to the newest when a limit is given,
// with the turn numbers of the whole session and the turn still running, if any.
import type { ApiClient, CallOptions } from '../api/client.js';
import { isHttpError } from '../api/errors.js';
import type { MessageType, Session } from '../api/types.js';
import { NotFoundError } from '../errors/agents-error.js';
import { readConversation, type Conversation } from '../conversation/model.js';
import { runningThread } from '../conversation/turn-state.js';
import { readMessages, userMessages } from './read.js';

/** Entries shown without --limit or --all. */
export const DEFAULT_SHOW_LIMIT = 50;

export interface SessionQuery {
  thread?: string;
  tools?: boolean;
  /** The newest `limit` entries of the conversation; undefined for all of it. */
  limit?: number;
}

export interface SessionView {
  session: Session;
  conversation: Conversation;
  /** The session's threads in order (turn numbers). */
  threads: string[];
  /** Older entries were left out: the limit they were cut to. */
  truncatedTo?: number;
  /** The latest thread, when it has no final reply yet (the agent is still on it). */
  running?: string;
}

/** Reads session `id` and its conversation. An unknown thread is a 404 that names it. */
export async function readSession(
  client: ApiClient,
  id: string,
  q: SessionQuery,
  o: CallOptions & { signal: AbortSignal },
): Promise<SessionView> {
  const session = await client.getSession(id, o);
  const types: MessageType[] = ['message', 'final_message', ...(q.tools ? (['tool_call'] as const) : [])];
  // The limit counts what is shown: read twice as many (the service's copies of final replies and its
  // notices are not shown), and one more, to know whether older messages were left out.
  const max = q.limit === undefined ? Number.POSITIVE_INFINITY : q.limit * 2 + 1;
  const target = { sessionId: session.id, threadId: q.thread };
  const read = await readMessages(client, target, types, max, o).catch((err: unknown) => {
    if (isHttpError(err) && err.kind === 'not_found' && q.thread !== undefined) {
      throw new NotFoundError(`session ${session.id} has no thread ${q.thread}`, {
        status: err.status,
        hint: `its threads are listed by: agents show ${session.id} --json`,
        cause: err,
      });
    }
    throw err;
  });
  const conversation = readConversation(read.messages);
  let truncatedTo: number | undefined;
  if (q.limit !== undefined && conversation.entries.length > q.limit) {
    conversation.entries = conversation.entries.slice(conversation.entries.length - q.limit);
    const oldest = Date.parse(conversation.entries[0]?.message.created_at ?? '');
    conversation.notices = conversation.notices.filter((n) => !(Date.parse(n.message.created_at) < oldest));
    truncatedTo = q.limit;
  }
  // Turn numbers belong to the session: when what is shown is not all of it, ask for every turn.
  const whole = truncatedTo === undefined && q.thread === undefined;
  const users =
    read.users ??
    (whole ? read.messages.filter((m) => m.role === 'user') : await userMessages(client, session.id, o));
  const threads = [...new Set(users.map((m) => m.chat_thread_id).filter((t): t is string => t !== null))];
  const latest = threads.at(-1);
  const shown = q.thread === undefined || q.thread.toLowerCase() === latest?.toLowerCase();
  return {
    session,
    conversation,
    threads,
    truncatedTo,
    running: shown ? runningThread(latest, read.messages) : undefined,
  };
}
