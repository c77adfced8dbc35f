// agents ls: the sessions this machine created or sent to (the API has no way to list sessions).
import {
  fetchLatestTurnState,
  groupOf,
  isHttpError,
  noteSessionFacts,
  readKnownSessions,
  type SessionFacts,
  type SessionRef,
  UsageError,
} from '../../../core/index.js';
import type { Context } from '../../run/context.js';
import type { Item } from '../../output/items.js';

export type LsFlags = { group?: SessionRef; limit: number; refresh?: boolean };

/** Sessions refreshed at once; the client's pacing keeps the whole within the key's budget. */
const REFRESH_CONCURRENCY = 4;

export async function ls(ctx: Context, flags: LsFlags): Promise<Item[]> {
  const history = await ctx.history();
  let sessions = (await readKnownSessions(history)).slice(0, flags.limit);
  if (flags.group !== undefined) {
    const group = await groupOf(flags.group, history);
    if (group === undefined) {
      throw new UsageError(
        'not a session group that `agents create --attempts` made on this machine',
        "give the group's id (create --attempts prints it on stderr), or last right after the create",
      );
    }
    sessions = group.sessions;
  }
  const items: Item[] = [];
  if (flags.refresh && sessions.length > 0) {
    const client = await ctx.client();
    const { signal } = ctx;
    const warn = (text: string) => items.push({ kind: 'warning', text });
    // A 404 is 'gone'; another failure leaves what was known, with a warning, but an authentication failure
    // ends the command (every other would fail).
    const refresh = async (id: string): Promise<SessionFacts | undefined> => {
      try {
        const session = await client.getSession(id, { signal });
        const state = session.is_archived ? 'archived' : await fetchLatestTurnState(client, id, { signal });
        const web = session.session_html_url;
        return { id, title: session.title || undefined, createdAt: session.created_at, web, state };
      } catch (err) {
        if (isHttpError(err) && err.kind === 'not_found') return { id, state: 'gone' };
        if (isHttpError(err) && err.kind !== 'auth' && err.kind !== 'forbidden' && err.kind !== 'aborted') {
          warn(`could not refresh session ${id}: ${err.message}`);
          return undefined;
        }
        throw err;
      }
    };
    const facts: (SessionFacts | undefined)[] = sessions.map(() => undefined);
    let next = 0;
    const worker = async () => {
      while (next < sessions.length) {
        const i = next++;
        facts[i] = await refresh(sessions[i]!.id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(REFRESH_CONCURRENCY, sessions.length) }, worker));
    const found = facts.filter((f): f is SessionFacts => f !== undefined);
    const failed = await noteSessionFacts(history, found);
    if (failed) warn(`${failed}; the refreshed states are shown but not kept`);
    // What a refresh learnt, over what was known: a fact it did not learn leaves the known one.
    const learnt = (f: SessionFacts | undefined) =>
      Object.fromEntries(Object.entries(f ?? {}).filter(([, v]) => v !== undefined));
    sessions = sessions.map((s, i) => ({ ...s, ...learnt(facts[i]) }));
  }
  items.push({ kind: 'sessions', profile: history.profile, baseUrl: history.baseUrl, sessions });
  return items;
}
