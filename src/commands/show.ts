// agents show: a session and its conversation, oldest first, grouped by turn. Everything is read before
// anything is printed, so a failure part-way (an unknown --thread) leaves stdout empty.
import type { Context } from '../context.js';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { ListQuery, Message, MessageType } from '../api/types.js';
import { CliError, ExitCode } from '../errors.js';
import type { SessionRef } from '../input/session-ref.js';
import { resolveSession } from '../input/resolve-session.js';
import { sessionOrPick } from '../input/pick-session.js';
import { readKnownSessions } from '../state/sessions.js';
import { mergeOldestFirst } from '../conversation/merge.js';
import { readConversation } from '../conversation/model.js';
import type { Item } from '../output/items.js';

export interface ShowFlags {
  thread?: string;
  tools?: boolean;
  limit?: number;
  all?: boolean;
  /** Ids in the terminal's headings and labels. */
  verbose?: boolean;
  /** commander's negation of --no-pager: false when it was given. */
  pager?: boolean;
  /** Open the session in the browser instead. */
  web?: boolean;
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

/** Every user message of the session, oldest first: one per turn, so they give the turns' order. */
function userMessages(client: ApiClient, sessionId: string, signal: AbortSignal): Promise<Message[]> {
  const query: ListQuery = { role: 'user', type: ['message', 'final_message'], direction: 'asc' };
  return take(client.iterateMessages({ sessionId }, query, { signal }));
}

/**
 * Up to `max` messages of both roles, oldest first when `max` is unbounded and newest first otherwise:
 * one list where the service takes `role` repeated, else a user list and an assistant list merged.
 */
async function readMessages(
  client: ApiClient,
  target: { sessionId: string; threadId?: string },
  types: MessageType[],
  max: number,
  signal: AbortSignal,
): Promise<{ messages: Message[]; users?: Message[] }> {
  const direction = max === Number.POSITIVE_INFINITY ? 'asc' : 'desc';
  const both = await client.listBothRoles(target, { type: types, direction }, max, { signal });
  if (both !== undefined) return { messages: mergeOldestFirst(both) };
  // Older deployments: one role a request. Every user message (one per turn), the assistant's side up to max.
  const users = await userMessages(client, target.sessionId, signal);
  const query: ListQuery = { role: 'assistant', type: types, direction };
  const assistant = await take(client.iterateMessages(target, query, { signal }), max);
  const mine =
    target.threadId === undefined ? users : users.filter((m) => m.chat_thread_id === target.threadId);
  return { messages: mergeOldestFirst(mine, assistant), users };
}

export async function show(ctx: Context, given: SessionRef | undefined, flags: ShowFlags): Promise<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { profile } = await ctx.settings([]);
  const { id } = await resolveSession(ref, ctx.state, profile);
  if (flags.web) {
    const { webAddress } = await import('./open.js');
    return { kind: 'browse', url: await webAddress(ctx, id, profile) };
  }
  const client = await ctx.client();
  const { signal } = ctx;
  const session = await client.getSession(id, { signal });

  const types: MessageType[] = flags.tools
    ? ['message', 'final_message', 'tool_call']
    : ['message', 'final_message'];
  const limit = flags.all ? undefined : (flags.limit ?? DEFAULT_SHOW_LIMIT);
  let read: { messages: Message[]; users?: Message[] };
  try {
    // The limit counts what is shown: read twice as many (the service's copies of final replies and its
    // notices are not shown), and one more, to know whether older messages were left out.
    const max = limit === undefined ? Number.POSITIVE_INFINITY : limit * 2 + 1;
    read = await readMessages(client, { sessionId: session.id, threadId: flags.thread }, types, max, signal);
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
  const conversation = readConversation(read.messages);
  let truncatedTo: number | undefined;
  if (limit !== undefined && conversation.entries.length > limit) {
    conversation.entries = conversation.entries.slice(conversation.entries.length - limit);
    const oldest = Date.parse(conversation.entries[0]?.message.created_at ?? '');
    conversation.notices = conversation.notices.filter((n) => !(Date.parse(n.message.created_at) < oldest));
    truncatedTo = limit;
  }
  // Turn numbers belong to the session: when what is shown is not all of it, ask for every turn.
  const whole = truncatedTo === undefined && flags.thread === undefined;
  const users =
    read.users ??
    (whole ? read.messages.filter((m) => m.role === 'user') : await userMessages(client, session.id, signal));
  const threads = [...new Set(users.map((m) => m.chat_thread_id).filter((t): t is string => t !== null))];
  // The agent, for a terminal's header: the service's, where it names one, else what this machine
  // created the session with (the state file is read for a person only: a script's show stays as fast).
  const named = typeof session.agent_name === 'string' ? session.agent_name : undefined;
  const forPerson = ctx.caps.stdoutIsTTY && !ctx.globals.json;
  const recorded = forPerson ? await readKnownSessions(ctx.state, profile) : [];
  const agent = named ?? recorded.find((s) => s.id === session.id)?.agent;
  return {
    kind: 'conversation',
    session,
    conversation,
    threads,
    truncatedTo,
    agent,
    verbose: flags.verbose === true,
    page: flags.pager !== false,
  };
}
