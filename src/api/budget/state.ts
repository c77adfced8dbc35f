// The shared budget's state file (shared.ts) and its rules, pure: what the file holds, what makes it
// unusable, when entries leave the window (an entry in flight whose lease ran out counts as ended when it
// did), and what it is called (the origin readable, the key only inside a hash).
import { createHash } from 'node:crypto';
import { isObject } from '../../util/json.js';

const VERSION = 1;

/** The state file: every field in epoch milliseconds. */
export interface SharedState {
  v: typeof VERSION;
  /** End times of requests still inside the window, oldest first. */
  ended: number[];
  /** Requests in flight: entry id → lease (until when its process vouches for it). */
  flight: Record<string, number>;
  /** Processes with waiters: process id → [how many, until when the entry is alive]. */
  waiters: Record<string, [number, number]>;
}

/** Why the file cannot be used as it is. */
export class BrokenState extends Error {}

export const emptyState = (): SharedState => ({ v: VERSION, ended: [], flight: {}, waiters: {} });

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
  if (!isObject(value) || value.v !== VERSION)
    throw new BrokenState('it is not a budget file of this version');
  const { ended, flight, waiters } = value;
  const ok =
    Array.isArray(ended) &&
    ended.every(isTime) &&
    isObject(flight) &&
    Object.values(flight).every(isTime) &&
    isObject(waiters) &&
    Object.values(waiters).every((w) => Array.isArray(w) && w.length === 2 && w.every(isTime));
  if (!ok) throw new BrokenState('its entries are malformed');
  return value as unknown as SharedState;
}

/**
 * Pure: drops what left the window by `now`. An entry in flight whose lease ran out (its process died or
 * stalled) counts from then on as a request that ended when its lease did.
 */
export function prune(s: SharedState, now: number, windowMs: number): void {
  for (const [id, lease] of Object.entries(s.flight)) {
    if (lease >= now) continue;
    delete s.flight[id];
    s.ended.push(lease);
  }
  s.ended = s.ended.filter((t) => t > now - windowMs).sort((a, b) => a - b);
  for (const [id, [, until]] of Object.entries(s.waiters)) if (until < now) delete s.waiters[id];
}

/** Pure: slots held now (in flight, or ended inside the window); call after prune. */
export function slotsHeld(s: SharedState): number {
  return s.ended.length + Object.keys(s.flight).length;
}

/** Pure: the first moment a slot can free (after prune, with every slot held). */
export function nextFree(s: SharedState, now: number, windowMs: number): number {
  // An entry still in flight ends at the earliest now; one whose lease runs out ends then.
  let first = now + windowMs;
  for (const t of s.ended) first = Math.min(first, t + windowMs);
  for (const lease of Object.values(s.flight)) first = Math.min(first, Math.max(now, lease) + windowMs);
  return first;
}

/** The state file of one origin and key: the origin readable, the key only as a hash. */
export function stateFileName(origin: string, apiKey: string): string {
  const host = origin.replace(/^[a-z]+:\/\//i, '').replace(/[^A-Za-z0-9.-]+/g, '_');
  const hash = createHash('sha256').update(`agents pacing\n${origin}\n${apiKey}`).digest('hex').slice(0, 24);
  return `${host}-${hash}.json`;
}
