// agents ls: the sessions this machine created or sent to (the API has no way to list sessions).
import {
  type ApiClient,
  fetchLatestTurnState,
  groupOf,
  isHttpError,
  type KnownSession,
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

// A 404 is 'gone'; another failure leaves what was known, with a warning, but an authentication failure
// ends the command (every other would fail).
async function refreshOne(
  client: ApiClient,
  s: KnownSession,
  signal: AbortSignal,
  warn: (text: string) => void,
): Promise<SessionFacts | undefined> {
  try {
    const session = await client.getSession(s.id, { signal });
    const state = session.is_archived ? 'archived' : await fetchLatestTurnState(client, s.id, { signal });
    return {
      id: s.id,
      title: session.title || undefined,
      createdAt: session.created_at,
      web: session.session_html_url,
      state,
    };
  } catch (err) {
    if (isHttpError(err) && err.kind === 'not_found') return { id: s.id, state: 'gone' };
    if (isHttpError(err) && err.kind !== 'auth' && err.kind !== 'forbidden' && err.kind !== 'aborted') {
      warn(`could not refresh session ${s.id}: ${err.message}`);
      return undefined;
    }
    throw err;
  }
}

export async function ls(ctx: Context, flags: LsFlags): Promise<Item[]> {
  const history = await ctx.history();
  const { profile } = history;
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
    const warn = (text: string) => items.push({ kind: 'warning', text });
    const facts: (SessionFacts | undefined)[] = sessions.map(() => undefined);
    let next = 0;
    const worker = async () => {
      while (next < sessions.length) {
        const i = next++;
        facts[i] = await refreshOne(client, sessions[i]!, ctx.signal, warn);
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
  items.push({ kind: 'sessions', profile, baseUrl: history.baseUrl, sessions });
  return items;
}
