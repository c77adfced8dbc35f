// agents show: a session and its conversation, oldest first, grouped by turn. Everything is read before
// anything is printed, so a failure part-way (an unknown --thread) leaves stdout empty.
import {
  DEFAULT_SHOW_LIMIT,
  groupOf,
  readKnownSessions,
  readSession,
  resolveSession,
  type SessionRef,
  webAddress,
  withDeadline,
} from '../../../core/index.js';
import type { Context } from '../../run/context.js';
import { sessionOrPick } from '../../input/pick-session.js';
import type { Item } from '../../output/items.js';
import type { ShowItem } from './items.js';

export { print } from './items.js';

export interface ShowFlags {
  thread?: string;
  tools?: boolean;
  limit?: number;
  all?: boolean;
  verbose?: boolean;
  pager?: boolean;
  web?: boolean;
  timeout?: number;
}

export async function show(
  ctx: Context,
  given: SessionRef | undefined,
  flags: ShowFlags,
): Promise<Item | ShowItem> {
  const ref = await sessionOrPick(ctx, given);
  const history = await ctx.history();
  // A session group (create --attempts): its attempts, as `agents ls` lists them.
  const group = await groupOf(ref, history);
  if (group !== undefined)
    return { kind: 'sessions', profile: history.profile, baseUrl: history.baseUrl, sessions: group.sessions };
  const { id } = await resolveSession(ref, history);
  if (flags.web) return { kind: 'browse', url: await webAddress(ctx, id) };
  const client = await ctx.client();
  const limit = flags.all ? undefined : (flags.limit ?? DEFAULT_SHOW_LIMIT);
  const view = await withDeadline(ctx.signal, flags.timeout, `reading session ${id}`, (signal) =>
    readSession(client, id, { thread: flags.thread, tools: flags.tools, limit }, { signal }),
  );
  const { session } = view;
  // The agent: the service's, else this machine's record (read for a person only: a script's stays fast).
  const named = typeof session.agent_name === 'string' ? session.agent_name : undefined;
  const forPerson = ctx.caps.stdoutIsTTY && !ctx.globals.json;
  const recorded = forPerson && named === undefined ? await readKnownSessions(history) : [];
  const agent = named ?? recorded.find((s) => s.id === session.id)?.agent;
  return { kind: 'conversation', ...view, agent, verbose: flags.verbose, page: flags.pager !== false };
}
