// The shared budget's state and its pure rules; named by the origin and, only inside a hash, the key.
import { createHash } from 'node:crypto';
import { isObject } from '../../util/json.js';

const VERSION = 1;

/** Every time in epoch milliseconds. */
export interface SharedState {
  v: typeof VERSION;
  /** Oldest first. */
  ended: number[];
  /** Entry id → lease (until when its process vouches for it). */
  flight: Record<string, number>;
  /** Process id → [waiters, until when the entry is alive]. */
  waiters: Record<string, [number, number]>;
  /** Ticket → [rank, lease]; free slots go to the lowest ranks, so none starves. Absent in older files. */
  queue: Record<string, [number, number]>;
  /** Absent while the whole limit is there. */
  cap?: [number, number];
  /** Process id → its command and option names (`create --wait`), never a value. Absent in older files. */
  who?: Record<string, string>;
  /** The key's 429s within the last REFUSALS_KEPT_MS. */
  refused?: number[];
  /** The key's last answer: a refused connection soon after is an outage (api/retry-bound.ts). */
  answered?: number;
}

export const REFUSALS_KEPT_MS = 60 * 60_000;

/** Why the state cannot be used. `newer`: a later version wrote it, and it is left alone for that version. */
export class BrokenState extends Error {
  readonly newer: boolean;

  constructor(message: string, options: ErrorOptions & { newer?: boolean } = {}) {
    super(message, options);
    this.newer = options.newer === true;
  }
}

export const emptyState = (): SharedState => ({ v: VERSION, ended: [], flight: {}, waiters: {}, queue: {} });

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Pure: the state in `text`; an empty file is a fresh one (what a crash before the first write leaves). */
export function parseState(text: string): SharedState {
  if (text.trim() === '') return emptyState();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BrokenState('it is not JSON');
  }
  if (isObject(value) && typeof value.v === 'number' && value.v > VERSION)
    throw new BrokenState('a newer version of agents wrote it', { newer: true });
  if (!isObject(value) || value.v !== VERSION)
    throw new BrokenState('it is not a budget file of this version');
  const { ended, flight, waiters, cap, who, refused, answered } = value;
  const queue = value.queue ?? {};
  const list = (v: unknown, is: (x: unknown) => boolean) => Array.isArray(v) && v.every(is);
  const map = (v: unknown, is: (x: unknown) => boolean) => isObject(v) && Object.values(v).every(is);
  const pair = (w: unknown): w is [number, number] => list(w, isTime) && (w as number[]).length === 2;
  const ok =
    list(ended, isTime) &&
    map(flight, isTime) &&
    map(waiters, pair) &&
    map(queue, pair) &&
    (cap === undefined || (pair(cap) && cap[0] >= 1)) &&
    (who === undefined || map(who, (w) => typeof w === 'string')) &&
    (refused === undefined || list(refused, isTime)) &&
    (answered === undefined || isTime(answered));
  if (!ok) throw new BrokenState('its entries are malformed');
  return { ...(value as unknown as SharedState), queue: queue as SharedState['queue'] };
}

/** Pure: drops what left the window by `now`; an entry in flight whose lease ran out ended when it did. */
export function prune(s: SharedState, now: number, windowMs: number): void {
  for (const [id, lease] of Object.entries(s.flight)) {
    if (lease >= now) continue;
    delete s.flight[id];
    s.ended.push(lease);
  }
  s.ended = s.ended.filter((t) => t > now - windowMs).sort((a, b) => a - b);
  for (const [id, [, until]] of Object.entries(s.waiters)) if (until < now) delete s.waiters[id];
  for (const [id, [, lease]] of Object.entries(s.queue)) if (lease < now) delete s.queue[id];
  if (s.refused !== undefined) {
    s.refused = s.refused.filter((t) => t > now - REFUSALS_KEPT_MS);
    if (s.refused.length === 0) delete s.refused;
  }
  if (s.who !== undefined) {
    // A process is named while it has anything here: waiters, tickets or requests in flight.
    const present = new Set(Object.keys(s.waiters));
    for (const id of [...Object.keys(s.flight), ...Object.keys(s.queue)]) present.add(id.split('.')[0] ?? '');
    for (const id of Object.keys(s.who)) if (!present.has(id)) delete s.who[id];
    if (Object.keys(s.who).length === 0) delete s.who;
  }
}

/** Pure, after prune: how many of `mine` (in rank order) the free slots go to: the lowest ranks, ties by id. */
export function grantable(
  s: SharedState,
  limit: number,
  mine: readonly { id: string; rank: number }[],
): number {
  const free = Math.max(0, limit - slotsHeld(s));
  if (free === 0 || mine.length === 0) return 0;
  const own = new Set(mine.map((t) => t.id));
  const others = Object.entries(s.queue)
    .filter(([id]) => !own.has(id))
    .map(([id, [rank]]) => ({ id, rank }));
  const before = (a: { id: string; rank: number }, b: { id: string; rank: number }) =>
    a.rank < b.rank || (a.rank === b.rank && a.id < b.id);
  // The first of ours with no free slot left behind those ahead of it, and ours before it.
  const n = mine.findIndex((t, i) => others.filter((o) => before(o, t)).length + i + 1 > free);
  return n < 0 ? mine.length : n;
}

/** Pure: slots held now (in flight, or ended inside the window); call after prune. */
export function slotsHeld(s: SharedState): number {
  return s.ended.length + Object.keys(s.flight).length;
}

/** Pure: the first moment a slot can free (after prune, with every slot held). */
export function nextFree(s: SharedState, now: number, windowMs: number): number {
  // An entry still in flight ends at the earliest now; one whose lease runs out ends then.
  const inFlight = Object.values(s.flight).map((lease) => Math.max(now, lease));
  return Math.min(now, ...s.ended, ...inFlight) + windowMs;
}

/** The SHA-256 naming one origin and key's budget: every version of agents must compute the same. */
export function budgetDigest(origin: string, apiKey: string): string {
  return createHash('sha256').update(`agents pacing\n${origin}\n${apiKey}`, 'utf8').digest('hex');
}

/** A key, or its budgetDigest as the config file keeps it beside a key in the keychain (`agents budget`). */
export type BudgetKeyRef = string | { digest: string };

export function digestOf(origin: string, key: BudgetKeyRef): string {
  return typeof key === 'string' ? budgetDigest(origin, key) : key.digest;
}

export function stateFileName(origin: string, key: BudgetKeyRef): string {
  const host = origin.replace(/^[a-z]+:\/\//i, '').replace(/[^A-Za-z0-9.-]+/g, '_');
  return `${host}-${digestOf(origin, key).slice(0, 24)}.json`;
}
