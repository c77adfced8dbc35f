// Reading a conversation, both roles, on any server the document allows: a repeated `role` is asked once and
// believed only when the answer shows both roles; else each role is read alone and merged. A session and its
// conversation as show and a resumed chat read it: cut to the newest when a limit is given, with the turn
// numbers of the whole session and the turn still running, if any.
import type { ApiClient, CallOptions, ThreadTarget } from '../api/client.js';
import { isHttpError } from '../api/errors.js';
import type { ListQuery, Message, MessageType, Role, Session } from '../api/types.js';
import { NotFoundError } from '../errors/agents-error.js';
import { mergeOldestFirst } from '../conversation/merge.js';
import { readConversation, type Conversation } from '../conversation/model.js';
import { runningThread } from '../conversation/turn-state.js';

/** What each client's server proved of a repeated `role`: 'all' (both listed) or 'one' (422, one role). */
const repeatedRole = new WeakMap<ApiClient, 'all' | 'one'>();

async function take(source: AsyncIterable<Message>, max = Number.POSITIVE_INFINITY): Promise<Message[]> {
  const out: Message[] = [];
  if (max <= 0) return out;
  for await (const m of source) {
    out.push(m);
    if (out.length >= max) break;
  }
  return out;
}

/** Every user message of the session, oldest first: one per turn, so they give the turns' order. */
export function userMessages(client: ApiClient, sessionId: string, o: CallOptions): Promise<Message[]> {
  const query: ListQuery = { role: 'user', type: ['message', 'final_message'], direction: 'asc' };
  return take(client.iterateMessages({ sessionId }, query, o));
}

/** Up to `max` messages of both roles of `target` (the newest when bounded), oldest first, each once; `users`,
 * every user message of the session (all threads) when the read had to list them anyway. */
// The document types `role` as one value; newer deployments of the live service take it repeated, older ones
// answer 422, and a server that follows the document may keep the first value or the last and answer 200
// (Node's URLSearchParams.get keeps the first, Django's QueryDict the last).
export async function readMessages(
  client: ApiClient,
  target: ThreadTarget,
  types: MessageType[],
  max: number,
  o: CallOptions,
): Promise<{ messages: Message[]; users?: Message[] }> {
  const bounded = max !== Number.POSITIVE_INFINITY;
  // Up to `max` of a role (or both), oldest first: a bounded read lists `desc` for the newest and is read
  // backwards (ties keep the server's order).
  const listed = async (role: Role | Role[]) => {
    const query: ListQuery = { role, type: types, direction: bounded ? 'desc' : 'asc' };
    const list = await take(client.iterateMessages(target, query, o), max);
    return bounded ? list.reverse() : list;
  };
  const newest = (messages: Message[]) =>
    bounded ? messages.slice(Math.max(0, messages.length - max)) : messages;
  if (repeatedRole.get(client) !== 'one') {
    const both = await listed(['user', 'assistant']).catch((err: unknown) => {
      if (!(isHttpError(err) && err.kind === 'validation')) throw err;
      repeatedRole.set(client, 'one');
      return undefined;
    });
    if (both !== undefined) {
      const roles = new Set(both.map((m) => m.role));
      if (roles.has('user') && roles.has('assistant')) {
        repeatedRole.set(client, 'all');
        return { messages: mergeOldestFirst(both) };
      }
      // One role, or none: the server may have kept one value of `role`, or the conversation really has one
      // role so far. Read the role it lacks alone; the union is right in every case. With none, ask for the
      // prompts: a thread without a user message has no reply either.
      const rest = await listed(roles.has('user') ? 'assistant' : 'user');
      if (rest.length > 0 && both.length > 0) repeatedRole.set(client, 'one');
      return { messages: newest(mergeOldestFirst(both, rest)) };
    }
  }
  // One list per role. Unbounded, every user message of the session (one per turn, for turn numbers).
  const users = bounded ? await listed('user') : await userMessages(client, target.sessionId, o);
  const assistant = await listed('assistant');
  if (bounded) return { messages: newest(mergeOldestFirst(users, assistant)) };
  const thread = target.threadId?.toLowerCase();
  const mine = thread === undefined ? users : users.filter((m) => m.chat_thread_id?.toLowerCase() === thread);
  return { messages: mergeOldestFirst(mine, assistant), users };
}

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
      const hint = `its threads are listed by: agents show ${session.id} --json`;
      const message = `session ${session.id} has no thread ${q.thread}`;
      throw new NotFoundError(message, { status: err.status, hint, cause: err });
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
  const running = shown ? runningThread(latest, read.messages) : undefined;
  return { session, conversation, threads, truncatedTo, running };
}
