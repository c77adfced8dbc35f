// The `last` session reference: the most recent session this machine created or sent to, per profile.
import { isObject } from '../util/json.js';
import { isUuid } from '../util/uuid.js';
import type { StateFile } from './state-file.js';
import { withUsedSession, type SessionFacts } from './known-sessions.js';

/** What `last` resolves to. */
export interface LastSession {
  id: string;
  /** The thread of the latest create or send, so a wait can resume it. */
  threadId?: string;
  at: string;
}

function entries(data: Record<string, unknown>): Record<string, unknown> {
  return isObject(data.last) ? data.last : {};
}

/** The last session of a profile, if one is recorded. */
export async function readLastSession(state: StateFile, profile: string): Promise<LastSession | undefined> {
  const entry = entries(await state.read())[profile];
  if (!isObject(entry) || typeof entry.id !== 'string' || !isUuid(entry.id)) return undefined;
  return {
    id: entry.id.toLowerCase(),
    threadId: typeof entry.threadId === 'string' && isUuid(entry.threadId) ? entry.threadId : undefined,
    at: typeof entry.at === 'string' ? entry.at : '',
  };
}

/** What a create or send knows of the session beyond its id and thread (for `agents ls`). */
export type UsedSession = Omit<SessionFacts, 'id' | 'threadId'>;

/**
 * Records the last session of a profile, and the session at the head of the profile's known sessions
 * (src/state/known-sessions.ts), in one update. Throws a CliError naming the file when it cannot be written.
 */
export async function writeLastSession(
  state: StateFile,
  profile: string,
  entry: Omit<LastSession, 'at'>,
  now = new Date(),
  facts: UsedSession = {},
): Promise<void> {
  await state.update((data) =>
    withUsedSession(
      {
        ...data,
        version: 1,
        last: { ...entries(data), [profile]: { ...entry, at: now.toISOString() } },
      },
      profile,
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
  state: StateFile,
  profile: string,
  entry: Omit<LastSession, 'at'>,
  facts: UsedSession = {},
): Promise<string | undefined> {
  try {
    await writeLastSession(state, profile, entry, new Date(), facts);
    return undefined;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const cleared = state.remove() ? ' and was cleared' : '';
    return `${why}; "last" cannot name this session${cleared}: give its id instead (${entry.id})`;
  }
}
