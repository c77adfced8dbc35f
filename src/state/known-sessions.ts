// The sessions this machine created or sent to, per profile (`agents ls`, the chooser, completion): the API
// cannot list sessions. Kept in the state file beside `last`, written in the same update, most recent first,
// at most MAX_SESSIONS a profile; unknown or malformed entries are dropped on read, never fatal.
import { isObject } from '../util/json.js';
import { isUuid } from '../util/uuid.js';
import type { StateData, StateFile } from './state-file.js';

/** Sessions kept per profile. */
export const MAX_SESSIONS = 100;

/** What this machine last knew of a session's latest turn, or of the session. */
export type KnownState = 'working' | 'finished' | 'archived' | 'gone';
const STATES: readonly string[] = ['working', 'finished', 'archived', 'gone'];

/** A session this machine created or sent to. */
export interface KnownSession {
  id: string;
  title?: string;
  /** The agent it was created with (agent_name), when this machine created it. */
  agent?: string;
  /** The session's created_at (ISO), as the service gave it. */
  createdAt?: string;
  /** When this machine last created, sent to or refreshed it (ISO). */
  usedAt: string;
  state?: KnownState;
  /** The thread of the latest create or send. */
  threadId?: string;
  /** The dashboard address (session_html_url). */
  web?: string;
}

const text = (v: unknown, max = 2000): string | undefined =>
  typeof v === 'string' && v !== '' ? v.slice(0, max) : undefined;

function parse(value: unknown): KnownSession | undefined {
  if (!isObject(value) || typeof value.id !== 'string' || !isUuid(value.id)) return undefined;
  const s: KnownSession = { id: value.id.toLowerCase(), usedAt: text(value.usedAt, 40) ?? '' };
  const title = text(value.title);
  if (title !== undefined) s.title = title;
  const agent = text(value.agent, 200);
  if (agent !== undefined) s.agent = agent;
  const createdAt = text(value.createdAt, 40);
  if (createdAt !== undefined) s.createdAt = createdAt;
  if (typeof value.state === 'string' && STATES.includes(value.state)) s.state = value.state as KnownState;
  if (typeof value.threadId === 'string' && isUuid(value.threadId)) s.threadId = value.threadId.toLowerCase();
  const web = text(value.web);
  if (web !== undefined) s.web = web;
  return s;
}

function byProfile(data: StateData): Record<string, unknown> {
  return isObject(data.sessions) ? data.sessions : {};
}

/** Pure: the known sessions of a profile in the state file's data, the most recently used first. */
export function knownSessions(data: StateData, profile: string): KnownSession[] {
  const list = byProfile(data)[profile];
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  const out: KnownSession[] = [];
  for (const item of list) {
    const s = parse(item);
    if (s === undefined || seen.has(s.id)) continue;
    seen.add(s.id);
    out.push(s);
  }
  return out;
}

/** Facts about a session to merge into what is known; fields left undefined keep their old value. */
export type SessionFacts = Partial<Omit<KnownSession, 'id' | 'usedAt'>> & { id: string };

function merge(old: KnownSession | undefined, facts: SessionFacts, usedAt: string): KnownSession {
  const s: KnownSession = { ...old, id: facts.id.toLowerCase(), usedAt };
  for (const [k, v] of Object.entries(facts)) if (v !== undefined && k !== 'id') Object.assign(s, { [k]: v });
  return s;
}

/** Pure: the data with `facts` recorded as the profile's most recently used session (first), bounded. */
export function withUsedSession(data: StateData, profile: string, facts: SessionFacts, now: Date): StateData {
  const list = knownSessions(data, profile);
  const id = facts.id.toLowerCase();
  const old = list.find((s) => s.id === id);
  const next = [merge(old, facts, now.toISOString()), ...list.filter((s) => s.id !== id)];
  return { ...data, sessions: { ...byProfile(data), [profile]: next.slice(0, MAX_SESSIONS) } };
}

/** Pure: the data with facts merged into sessions already known (order and use times kept; others ignored). */
export function withSessionFacts(
  data: StateData,
  profile: string,
  facts: readonly SessionFacts[],
): StateData {
  const updates = new Map(facts.map((f) => [f.id.toLowerCase(), f]));
  const list = knownSessions(data, profile).map((s) => {
    const f = updates.get(s.id);
    return f ? merge(s, f, s.usedAt) : s;
  });
  return { ...data, sessions: { ...byProfile(data), [profile]: list } };
}

/** The known sessions of a profile (an unreadable state file is an empty list). */
export async function readKnownSessions(state: StateFile, profile: string): Promise<KnownSession[]> {
  return knownSessions(await state.read(), profile);
}

/**
 * Merges facts learnt later (a wait that ended, a refresh) into the state file. A convenience: a state
 * file that cannot be written loses them, and the command goes on; the reason is returned for a warning.
 */
export async function noteSessionFacts(
  state: StateFile,
  profile: string,
  facts: readonly SessionFacts[],
): Promise<string | undefined> {
  if (facts.length === 0) return undefined;
  try {
    await state.update((data) => withSessionFacts(data, profile, facts));
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
