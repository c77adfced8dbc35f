// The sessions this machine created or sent to (the API cannot list them): a list a profile in the state
// file, each entry naming its base URL, newest first, at most MAX_SESSIONS a service; malformed ones dropped.
import { isObject } from '../../util/json.js';
import { isUuid } from '../../util/uuid.js';
import type { StateData } from './state-file.js';
import { inHistory, normalBaseUrl, type History } from './history.js';
import { errorMessage } from '../../util/text.js';

export const MAX_SESSIONS = 100;

/** What this machine last knew of a session's latest turn, or of the session. */
export type KnownState = 'working' | 'finished' | 'archived' | 'gone';
const STATES: readonly string[] = ['working', 'finished', 'archived', 'gone'];

export interface KnownSession {
  id: string;
  /** The service it lives on; undefined for an entry recorded before base URLs were (see History). */
  baseUrl?: string;
  title?: string;
  /** The agent it was created with (agent_name), when this machine created it. */
  agent?: string;
  createdAt?: string;
  /** When this machine last created, sent to or refreshed it (ISO). */
  usedAt: string;
  state?: KnownState;
  /** The thread of the latest create or send. */
  threadId?: string;
  /** session_html_url. */
  web?: string;
  /** `create --attempts`: the session_group_id, and which attempt of it this is, from 1. */
  group?: string;
  attempt?: number;
}

const text = (v: unknown, max = 2000): string | undefined =>
  typeof v === 'string' && v !== '' ? v.slice(0, max) : undefined;

function parse(value: unknown): KnownSession | undefined {
  if (!isObject(value) || typeof value.id !== 'string' || !isUuid(value.id)) return undefined;
  const s: KnownSession = { id: value.id.toLowerCase(), usedAt: text(value.usedAt, 40) ?? '' };
  const baseUrl = normalBaseUrl(text(value.baseUrl));
  if (baseUrl !== undefined) s.baseUrl = baseUrl;
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
  if (typeof value.group === 'string' && isUuid(value.group)) s.group = value.group.toLowerCase();
  if (Number.isInteger(value.attempt) && (value.attempt as number) >= 1 && (value.attempt as number) <= 5)
    s.attempt = value.attempt as number;
  return s;
}

function byProfile(data: StateData): Record<string, unknown> {
  return isObject(data.sessions) ? data.sessions : {};
}

/** Every entry of a profile, whatever its service, in the file's order (the same id once per service). */
function allOfProfile(data: StateData, profile: string): KnownSession[] {
  const list = byProfile(data)[profile];
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  return list.flatMap((item) => {
    const s = parse(item);
    const key = `${s?.baseUrl ?? ''} ${s?.id}`;
    if (s === undefined || seen.has(key)) return [];
    seen.add(key);
    return [s];
  });
}

/** Pure: the known sessions of a history, the most recently used first. */
export function knownSessions(data: StateData, h: Omit<History, 'state'>): KnownSession[] {
  return allOfProfile(data, h.profile).filter((s) => inHistory(h, s.baseUrl));
}

/** Facts to merge into what is known; fields left undefined keep their old value. */
export type SessionFacts = Partial<Omit<KnownSession, 'id' | 'usedAt' | 'baseUrl'>> & { id: string };

function merge(old: KnownSession | undefined, facts: SessionFacts, usedAt: string): KnownSession {
  const s: KnownSession = { ...old, id: facts.id.toLowerCase(), usedAt };
  for (const [k, v] of Object.entries(facts)) if (v !== undefined && k !== 'id') Object.assign(s, { [k]: v });
  return s;
}

/** The profile's list with `h`'s part replaced by `mine` (bounded), the other services' entries kept. */
function withPart(data: StateData, h: Omit<History, 'state'>, mine: KnownSession[]): StateData {
  const others = allOfProfile(data, h.profile).filter((s) => !inHistory(h, s.baseUrl));
  return {
    ...data,
    sessions: { ...byProfile(data), [h.profile]: [...mine.slice(0, MAX_SESSIONS), ...others] },
  };
}

/** Pure: the data with `facts` recorded as the history's most recently used session (first), bounded. */
export function withUsedSession(
  data: StateData,
  h: Omit<History, 'state'>,
  facts: SessionFacts,
  now: Date,
): StateData {
  const list = knownSessions(data, h);
  const id = facts.id.toLowerCase();
  const old = list.find((s) => s.id === id);
  const used = merge(old, facts, now.toISOString());
  // Recorded from now on with its service, whatever an older entry said.
  if (h.baseUrl !== undefined) used.baseUrl = h.baseUrl;
  return withPart(data, h, [used, ...list.filter((s) => s.id !== id)]);
}

/** Pure: the data with facts merged into the history's sessions (order and use times kept). */
export function withSessionFacts(
  data: StateData,
  h: Omit<History, 'state'>,
  facts: readonly SessionFacts[],
): StateData {
  const updates = new Map(facts.map((f) => [f.id.toLowerCase(), f]));
  const list = knownSessions(data, h).map((s) => {
    const f = updates.get(s.id);
    return f ? merge(s, f, s.usedAt) : s;
  });
  return withPart(data, h, list);
}

/** The known sessions of a history (an unreadable state file is an empty list). */
export async function readKnownSessions(h: History): Promise<KnownSession[]> {
  return knownSessions(await h.state.read(), h);
}

/** Merges facts learnt later into the state file; one that cannot be written loses them (says why). */
export async function noteSessionFacts(
  h: History,
  facts: readonly SessionFacts[],
): Promise<string | undefined> {
  if (facts.length === 0) return undefined;
  try {
    await h.state.update((data) => withSessionFacts(data, h, facts));
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}

/** A session as JSON for scripts (`ls --json`, MCP's `list_sessions`), API style. */
export function sessionJson(s: KnownSession): Record<string, string | null> {
  return {
    id: s.id,
    title: s.title ?? null,
    agent: s.agent ?? null,
    state: s.state ?? null,
    created_at: s.createdAt ?? null,
    last_used_at: s.usedAt || null,
    thread_id: s.threadId ?? null,
    web_url: s.web ?? null,
  };
}
