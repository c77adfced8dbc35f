// The `last` session reference: the most recent session this machine created or sent to, per profile.
import { isObject } from '../util/json.js';
import { isUuid } from '../util/uuid.js';
import type { StateFile } from './store.js';

/** What `last` resolves to. */
export interface LastSession {
  id: string;
  /** The thread of the latest create or send, so a wait can resume it. */
  threadId?: string;
  at: string;
}

/** What is recorded of a create or send. `agent`: the agent a create started (for wait's status lines). */
export type Recorded = Omit<LastSession, 'at'> & { agent?: string };

/** Sessions whose agent is remembered, per profile: the most recent ones. */
const KEEP_AGENTS = 200;

function entries(data: Record<string, unknown>): Record<string, unknown> {
  return isObject(data.last) ? data.last : {};
}

function agents(data: Record<string, unknown>, profile: string): Record<string, unknown> {
  const all = isObject(data.agents) ? data.agents : {};
  return isObject(all[profile]) ? all[profile] : {};
}

/** The agent this machine started the session with, if it did (the API does not say). */
export async function readSessionAgent(
  state: StateFile,
  profile: string,
  sessionId: string,
): Promise<string | undefined> {
  const agent = agents(await state.read(), profile)[sessionId];
  return typeof agent === 'string' ? agent : undefined;
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

/** Records the last session of a profile. Throws a CliError naming the file when it cannot be written. */
export async function writeLastSession(
  state: StateFile,
  profile: string,
  recorded: Recorded,
  now = new Date(),
): Promise<void> {
  const { agent, ...entry } = recorded;
  await state.update((data) => {
    const next: Record<string, unknown> = {
      ...data,
      version: 1,
      last: { ...entries(data), [profile]: { ...entry, at: now.toISOString() } },
    };
    if (agent !== undefined) {
      // Insertion order is age: the oldest go first.
      const kept = Object.entries(agents(data, profile)).filter(([id]) => id !== entry.id);
      const mine = Object.fromEntries([...kept.slice(-(KEEP_AGENTS - 1)), [entry.id, agent]]);
      next.agents = { ...(isObject(data.agents) ? data.agents : {}), [profile]: mine };
    }
    return next;
  });
}

/**
 * Records `last` after a create or send. A failure is not the command's failure (the session exists),
 * so it comes back as a warning; `last` is refused from then on while the file cannot be written (see
 * resolveSession), rather than left pointing at an older session.
 */
export async function recordLast(
  state: StateFile,
  profile: string,
  entry: Recorded,
): Promise<string | undefined> {
  try {
    await writeLastSession(state, profile, entry);
    return undefined;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return `${why}; "last" cannot be used until it can be written (give the session id instead: ${entry.id})`;
  }
}
