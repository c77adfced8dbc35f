// `last`: the head of the history's known sessions. The state file's `last` is still written, and read for a
// history with no known session (a file from before known sessions were kept).
import { isObject } from '../../util/json.js';
import { isUuid } from '../../util/uuid.js';
import { knownSessions, withUsedSession, type SessionFacts } from './known-sessions.js';
import { inHistory, normalBaseUrl, type History } from './history.js';
import { errorMessage } from '../../util/text.js';

export interface LastSession {
  id: string;
  threadId?: string;
  at: string;
  /** Set by `create --attempts`: `last` then names this session group (until the next create or send). */
  group?: string;
}

function entries(data: Record<string, unknown>): Record<string, unknown> {
  return isObject(data.last) ? data.last : {};
}

export async function readLastSession(h: History): Promise<LastSession | undefined> {
  const data = await h.state.read();
  const head = knownSessions(data, h)[0];
  const entry = entries(data)[h.profile];
  if (head !== undefined) {
    const grouped =
      isObject(entry) && entry.id === head.id && head.group !== undefined && entry.group === head.group;
    return { id: head.id, threadId: head.threadId, at: head.usedAt, ...(grouped && { group: head.group }) };
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

/** Records the session at the head of the known sessions, and `last` for older readers, in one update. */
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

/** Records `last` after a create or send. A failure is a warning (the session exists), and `last` must not
 * name an older session: the state file is removed if it can be, and while it cannot be written `last` is
 * refused (see resolveSession). */
export async function recordLast(
  h: History,
  entry: Omit<LastSession, 'at'>,
  facts: UsedSession = {},
): Promise<string | undefined> {
  try {
    await writeLastSession(h, entry, new Date(), facts);
    return undefined;
  } catch (err) {
    const why = errorMessage(err);
    const cleared = h.state.remove() ? ' and was cleared' : '';
    return `${why}; "last" cannot name this session${cleared}: give its id instead (${entry.id})`;
  }
}
