// A session group made by `create --attempts`, as this machine recorded it (the API cannot list a group):
// `last` right after such a create, or the group's own id; `--attempt K` picks one of its sessions.
import { UsageError } from '../errors/cli-error.js';
import type { SessionRef } from './refs.js';
import { readKnownSessions, type KnownSession } from '../state/known-sessions.js';
import { readLastSession } from '../state/last-session.js';
import type { History } from '../state/history.js';

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
  if (session === undefined) {
    const have = group.sessions.map((s) => s.attempt).join(', ');
    throw new UsageError(`group ${group.id} has no attempt ${k} (known here: ${have})`);
  }
  return { kind: 'id', id: session.id };
}
