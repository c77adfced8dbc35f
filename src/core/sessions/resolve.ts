// A parsed `<session>` reference made into a session id: `last` is looked up in the state file. A session
// group made by `create --attempts`, as this machine recorded it (the API cannot list a group): `last` right
// after such a create, or the group's own id; `--attempt K` picks one of its sessions.
import { UsageError } from '../errors/cli-error.js';
import { readLastSession, type LastSession } from '../state/last-session.js';
import { historyName, type History } from '../state/history.js';
import { noteSessionFacts, readKnownSessions, type KnownSession } from '../state/known-sessions.js';
import type { SessionRef } from './refs.js';
import type { SessionWork } from './session-work.js';

export interface ResolvedSession {
  id: string;
  last?: LastSession;
}

export async function resolveSession(ref: SessionRef, history: History): Promise<ResolvedSession> {
  const { state } = history;
  if (ref.kind === 'id') return { id: ref.id };
  // A state file that cannot be written may hold an older session than the one just created or sent
  // to: posting to it would go to the wrong conversation.
  if (!state.writable()) {
    throw new UsageError(
      `"last" is not reliable: the state file ${state.path} cannot be written, so it may name an older session`,
      'give the session id, or make the state directory writable (AGENTS_STATE_DIR moves it)',
    );
  }
  const last = await readLastSession(history);
  if (last === undefined) {
    // Sessions of another service are not offered: they would be "not found" here.
    throw new UsageError(
      `no "last" session ${historyName(history)} yet`,
      'create one with agents create, or give a session id',
    );
  }
  if (ref.mustBe !== undefined && ref.mustBe !== last.id) {
    throw new UsageError(
      `"last" is session ${last.id}, not ${ref.mustBe} as the thread reference says`,
      'give the session id that the thread belongs to',
    );
  }
  return { id: last.id, last };
}

export interface KnownGroup {
  id: string;
  sessions: KnownSession[];
}

export function groupIn(known: readonly KnownSession[], id: string): KnownGroup | undefined {
  const sessions = known.filter((s) => s.group === id).sort((a, b) => (a.attempt ?? 0) - (b.attempt ?? 0));
  return sessions.length === 0 ? undefined : { id, sessions };
}

/** The group `ref` names, or undefined when it names a session: `last` after `create --attempts`, or an id
 * that is no known session's but is a known group's. */
export async function groupOf(ref: SessionRef, h: History): Promise<KnownGroup | undefined> {
  if (ref.kind === 'last') {
    if (ref.mustBe !== undefined || !h.state.writable()) return undefined;
    const group = (await readLastSession(h))?.group;
    return group === undefined ? undefined : groupIn(await readKnownSessions(h), group);
  }
  const known = await readKnownSessions(h);
  if (known.some((s) => s.id === ref.id)) return undefined;
  return groupIn(known, ref.id);
}

/** A session argument with `--attempt K` applied: that attempt's session (the group left out: `last`'s). */
export async function withAttempt(
  given: SessionRef | undefined,
  k: number | undefined,
  history: () => Promise<History>,
): Promise<SessionRef | undefined> {
  if (k === undefined) return given;
  const group = await groupOf(given ?? { kind: 'last' }, await history());
  if (group === undefined) {
    throw new UsageError(
      '--attempt needs a session group that `agents create --attempts` made on this machine',
      "give the group's id (or last, right after the create), or an attempt's own session id",
    );
  }
  const session = group.sessions.find((s) => s.attempt === k);
  if (session !== undefined) return { kind: 'id', id: session.id };
  const have = group.sessions.map((s) => s.attempt).join(', ');
  throw new UsageError(`group ${group.id} has no attempt ${k} (known here: ${have})`);
}

/** The dashboard address of a session: recorded, or asked of the service (and then recorded). */
export async function webAddress(
  ctx: Pick<SessionWork, 'history' | 'client' | 'signal'>,
  id: string,
): Promise<string> {
  const history = await ctx.history();
  const known = (await readKnownSessions(history)).find((s) => s.id === id);
  if (known?.web) return known.web;
  const client = await ctx.client();
  const session = await client.getSession(id, { signal: ctx.signal });
  if (known) await noteSessionFacts(history, [{ id, web: session.session_html_url }]);
  return session.session_html_url;
}
