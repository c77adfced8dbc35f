// The `last` session reference: the most recent session this machine created or sent to, per profile and
// service (the head of its known sessions). `last` of the state file is still written, and read for a
// history that has no known session (a file from before known sessions were kept).
import { isObject } from '../../util/json.js';
import { isUuid } from '../../util/uuid.js';
import { knownSessions, withUsedSession, type SessionFacts } from './known-sessions.js';
import { inHistory, normalBaseUrl, type History } from './history.js';

/** What `last` resolves to. */
export interface LastSession {
  id: string;
  /** The thread of the latest create or send, so a wait can resume it. */
  threadId?: string;
  at: string;
  /** Set when the last command was `create --attempts`: `last` names this session group to wait, show, ls,
   * diff and checkout (a later create or send names its own session again). */
  group?: string;
}

function entries(data: Record<string, unknown>): Record<string, unknown> {
  return isObject(data.last) ? data.last : {};
}

/** The last session of a history, if one is recorded. */
export async function readLastSession(h: History): Promise<LastSession | undefined> {
  const data = await h.state.read();
  const head = knownSessions(data, h)[0];
  const entry = entries(data)[h.profile];
  if (head !== undefined) {
    const last: LastSession = { id: head.id, threadId: head.threadId, at: head.usedAt };
    const group = isObject(entry) && entry.id === head.id ? entry.group : undefined;
    if (typeof group === 'string' && isUuid(group) && head.group === group) last.group = group;
    return last;
  }
  if (!isObject(entry) || typeof entry.id !== 'string' || !isUuid(entry.id)) return undefined;
  const baseUrl = typeof entry.baseUrl === 'string' ? normalBaseUrl(entry.baseUrl) : undefined;
  if (!inHistory(h, baseUrl)) return undefined;
  return {
    id: entry.id.toLowerCase(),
    threadId: typeof entry.threadId === 'string' && isUuid(entry.threadId) ? entry.threadId : undefined,
    at: typeof entry.at === 'string' ? entry.at : '',
  };
}

/** What a create or send knows of the session beyond its id and thread (for `agents ls`). */
export type UsedSession = Omit<SessionFacts, 'id' | 'threadId'>;

/**
 * Records the session at the head of the history's known sessions (src/core/state/known-sessions.ts), and the
 * profile's `last` for older readers, in one update. Throws a CliError naming the file when it cannot be written.
 */
export async function writeLastSession(
  h: History,
  entry: Omit<LastSession, 'at'>,
  now = new Date(),
  facts: UsedSession = {},
): Promise<void> {
  const at = now.toISOString();
  const baseUrl = h.baseUrl === undefined ? {} : { baseUrl: h.baseUrl };
  await h.state.update((data) =>
    withUsedSession(
      { ...data, version: 1, last: { ...entries(data), [h.profile]: { ...entry, ...baseUrl, at } } },
      h,
      { ...facts, id: entry.id, threadId: entry.threadId },
      now,
    ),
  );
}

/**
 * Records `last` after a create or send. A failure is not the command's failure (the session exists), so
 * it comes back as a warning, and `last` must not be left naming an older session: the state file is
 * removed if it can be (every profile's `last` is forgotten, a convenience lost), and while it cannot be
 * written `last` is refused (see resolveSession).
 */
export async function recordLast(
  h: History,
  entry: Omit<LastSession, 'at'>,
  facts: UsedSession = {},
): Promise<string | undefined> {
  try {
    await writeLastSession(h, entry, new Date(), facts);
    return undefined;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const cleared = h.state.remove() ? ' and was cleared' : '';
    return `${why}; "last" cannot name this session${cleared}: give its id instead (${entry.id})`;
  }
}
