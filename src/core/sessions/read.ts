// Reading a conversation, both roles, on any server the document allows: a repeated `role` is asked once
// and believed only when the answer shows both roles; otherwise each role is read alone and merged. What a
// server proved is kept per client, for the rest of the run.
import type { ApiClient, CallOptions, ThreadTarget } from '../api/client.js';
import { isHttpError } from '../api/errors.js';
import type { ListQuery, Message, MessageType, Role } from '../api/types.js';
import { mergeOldestFirst } from '../conversation/merge.js';

/**
 * What each client's server proved of a repeated `role`: 'all' once an answer listed both roles, 'one'
 * once it proved otherwise (422, or one role where two were there). Kept here, beside the reads that
 * learn it, for as long as the client lives.
 */
const repeatedRole = new WeakMap<ApiClient, 'all' | 'one'>();

/** Up to `max` messages of a list. */
export async function take(
  source: AsyncIterable<Message>,
  max = Number.POSITIVE_INFINITY,
): Promise<Message[]> {
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

/** What a read found: the messages, oldest first, and every user message of the session when it read them. */
export interface ReadMessages {
  messages: Message[];
  /** Every user message of the session (all threads), when the read had to list them anyway. */
  users?: Message[];
}

/** A list read `direction=desc` turned oldest first: read backwards, ties keep the server's order. */
function oldestFirst(list: Message[], max: number): Message[] {
  return max === Number.POSITIVE_INFINITY ? list : list.reverse();
}

/** The newest `max` of a list sorted oldest first. */
function newest(messages: Message[], max: number): Message[] {
  return max === Number.POSITIVE_INFINITY ? messages : messages.slice(Math.max(0, messages.length - max));
}

/** One role's messages of the target, oldest first when unbounded, else the newest `max`. */
async function oneRole(
  client: ApiClient,
  target: ThreadTarget,
  role: Role,
  types: MessageType[],
  max: number,
  o: CallOptions,
): Promise<Message[]> {
  const direction = max === Number.POSITIVE_INFINITY ? 'asc' : 'desc';
  return oldestFirst(
    await take(client.iterateMessages(target, { role, type: types, direction }, o), max),
    max,
  );
}

/**
 * Up to `max` messages of both roles of `target` (the newest when bounded), returned oldest first: user
 * prompts and replies, each once and in order, whatever the server makes of a repeated `role`.
 */
// The document types `role` as one value; newer deployments of the live service take it repeated
// (`role=user&role=assistant`), older ones answer 422, and a server that follows the document may just as
// well keep the first value or the last and answer 200 (Node's URLSearchParams.get keeps the first, Django's
// QueryDict the last). The cost: the usual requests where the server honours it, the usual two lists where
// it does not, plus the one refused question where it says 422.
export async function readMessages(
  client: ApiClient,
  target: ThreadTarget,
  types: MessageType[],
  max: number,
  o: CallOptions,
): Promise<ReadMessages> {
  if (repeatedRole.get(client) !== 'one') {
    const direction = max === Number.POSITIVE_INFINITY ? 'asc' : 'desc';
    let both: Message[] | undefined;
    try {
      const query: ListQuery = { role: ['user', 'assistant'], type: types, direction };
      both = oldestFirst(await take(client.iterateMessages(target, query, o), max), max);
    } catch (err) {
      if (!(isHttpError(err) && err.kind === 'validation')) throw err;
      repeatedRole.set(client, 'one');
    }
    if (both !== undefined) {
      const roles = new Set(both.map((m) => m.role));
      if (roles.has('user') && roles.has('assistant')) {
        repeatedRole.set(client, 'all');
        return { messages: mergeOldestFirst(both) };
      }
      // One role, or none: the server may have kept one value of `role`, or the conversation really has
      // one role so far (a first turn still running). Read the role it lacks alone; the union is right in
      // every case. With none at all, ask for the prompts: a thread without a user message has no turn,
      // so no reply either.
      const missing: Role = roles.has('user') ? 'assistant' : 'user';
      const rest = await oneRole(client, target, missing, types, max, o);
      if (rest.length > 0 && both.length > 0) repeatedRole.set(client, 'one');
      const merged = mergeOldestFirst(both, rest);
      return { messages: newest(merged, max) };
    }
  }
  // A server that reads one `role`: one list per role. Unbounded, every user message of the session (one
  // per turn, for turn numbers) and the assistant's side; bounded, the newest of each.
  if (max !== Number.POSITIVE_INFINITY) {
    const users = await oneRole(client, target, 'user', types, max, o);
    const assistant = await oneRole(client, target, 'assistant', types, max, o);
    return { messages: newest(mergeOldestFirst(users, assistant), max) };
  }
  const users = await userMessages(client, target.sessionId, o);
  const assistant = await oneRole(client, target, 'assistant', types, max, o);
  const thread = target.threadId?.toLowerCase();
  const mine = thread === undefined ? users : users.filter((m) => m.chat_thread_id?.toLowerCase() === thread);
  return { messages: mergeOldestFirst(mine, assistant), users };
}
