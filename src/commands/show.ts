// agents show: a session and its conversation, oldest first, grouped by turn. Everything is read before
// anything is printed, so a failure part-way (an unknown --thread) leaves stdout empty.
import type { Context } from '../context.js';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { ListQuery, Message, MessageType } from '../api/types.js';
import { CliError, ExitCode } from '../errors.js';
import type { SessionRef } from '../input/session-ref.js';
import { resolveSession } from '../input/resolve-session.js';
import { mergeOldestFirst } from '../conversation/merge.js';
import type { Item } from '../output/items.js';

export interface ShowFlags {
  thread?: string;
  tools?: boolean;
  limit?: number;
  all?: boolean;
}

/** Default number of messages shown without --limit or --all. */
export const DEFAULT_SHOW_LIMIT = 50;

/** Up to `max` messages of a list. */
async function take(source: AsyncIterable<Message>, max = Number.POSITIVE_INFINITY): Promise<Message[]> {
  const out: Message[] = [];
  if (max <= 0) return out;
  for await (const m of source) {
    out.push(m);
    if (out.length >= max) break;
  }
  return out;
}

/** The assistant's side of the conversation: every message, or the newest `max`. */
function assistantMessages(
  client: ApiClient,
  target: { sessionId: string; threadId?: string },
  types: MessageType[],
  max: number | undefined,
  signal: AbortSignal,
): Promise<Message[]> {
  const query: ListQuery = { role: 'assistant', type: types, direction: max === undefined ? 'asc' : 'desc' };
  return take(client.iterateMessages(target, query, { signal }), max);
}

export async function show(ctx: Context, ref: SessionRef, flags: ShowFlags): Promise<Item> {
  const { profile } = await ctx.settings([]);
  const { id } = await resolveSession(ref, ctx.state, profile);
  const client = await ctx.client();
  const { signal } = ctx;
  const session = await client.getSession(id, { signal });

  // One user message per turn: all of them give the turn numbers, and the person's side of every turn.
  const users = await take(
    client.iterateMessages(
      { sessionId: session.id },
      { role: 'user', type: ['message', 'final_message'], direction: 'asc' },
      { signal },
    ),
  );
  const threads = [...new Set(users.map((m) => m.chat_thread_id).filter((t): t is string => t !== null))];

  const types: MessageType[] = flags.tools
    ? ['message', 'final_message', 'tool_call']
    : ['message', 'final_message'];
  const limit = flags.all ? undefined : (flags.limit ?? DEFAULT_SHOW_LIMIT);
  let assistant: Message[];
  try {
    // One more than the limit, to know whether older messages were left out.
    const target = { sessionId: session.id, threadId: flags.thread };
    assistant = await assistantMessages(
      client,
      target,
      types,
      limit === undefined ? undefined : limit + 1,
      signal,
    );
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found' && flags.thread !== undefined) {
      throw new CliError(`session ${session.id} has no thread ${flags.thread}`, {
        exitCode: ExitCode.NOT_FOUND,
        hint: `its threads are listed by: agents show ${session.id} --json`,
        cause: err,
      });
    }
    throw err;
  }
  const mine = flags.thread === undefined ? users : users.filter((m) => m.chat_thread_id === flags.thread);
  let messages = mergeOldestFirst(mine, assistant);
  let truncatedTo: number | undefined;
  if (limit !== undefined && messages.length > limit) {
    messages = messages.slice(messages.length - limit);
    truncatedTo = limit;
  }
  return { kind: 'conversation', session, messages, threads, truncatedTo };
}
