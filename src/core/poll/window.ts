// The poller's memory: which messages of the `gts` window it has already yielded, and the cursor kept a
// margin behind the newest `ts` (a provider's `ts` is neither unique nor in storage order).
import type { Message } from '../api/types.js';

/** How wide the window behind the newest `ts` is, in seconds. */
export interface WindowOptions {
  /** Covers same-second messages and a provider clock that trails a little. */
  baseMarginS: number;
  /** However disordered the timestamps look. */
  maxMarginS: number;
}

const DEFAULT_WINDOW: WindowOptions = { baseMarginS: 30, maxMarginS: 3600 };

type Stamped = Pick<Message, 'id' | 'ts' | 'created_at'>;

// The API filters on `ts > gts`, but several messages share a second, and one can be stored with a `ts`
// older than one already seen: so the cursor (`floor`) stays a margin behind the newest `ts`, and every
// message of the window is remembered by id. The list is in storage order, so the known messages of a
// window come first and a poll can start just before the first unknown one.
export class SeenWindow {
  /** The `gts` of the next poll; undefined until a timestamp has been seen (the whole list is the window). */
  floor: number | undefined;
  private readonly ids = new Map<string, number | null>();
  private maxTs = Number.NEGATIVE_INFINITY;
  private maxCreated = Number.NEGATIVE_INFINITY;
  private maxInversion = 0;
  private readonly options: WindowOptions;

  constructor(options: Partial<WindowOptions> = {}, floor?: number) {
    this.options = { ...DEFAULT_WINDOW, ...options };
    this.floor = floor;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Known messages inside the window: with `floor` set, exactly those the server returns for `gts=floor`. */
  get size(): number {
    return this.ids.size;
  }

  add(m: Stamped): void {
    if (this.ids.has(m.id)) return;
    this.ids.set(m.id, m.ts);
    if (typeof m.ts === 'number' && Number.isFinite(m.ts)) {
      this.maxInversion = Math.max(this.maxInversion, this.maxTs - m.ts);
      this.maxTs = Math.max(this.maxTs, m.ts);
    }
    const created = Date.parse(m.created_at) / 1000;
    if (Number.isFinite(created)) this.maxCreated = Math.max(this.maxCreated, created);
  }

  /** The current margin: wider when timestamps have been seen out of order. */
  get marginS(): number {
    const { baseMarginS, maxMarginS } = this.options;
    return Math.min(maxMarginS, Math.max(baseMarginS, 2 * this.maxInversion + 2));
  }

  /**
   * Moves the cursor after a complete poll, forgetting what can no longer come back. It never passes the
   * newest storage time: one message with a provider clock far ahead must not hide the messages after it.
   */
  advance(): void {
    if (this.maxTs === Number.NEGATIVE_INFINITY) return;
    let candidate = this.maxTs;
    if (this.maxCreated > Number.NEGATIVE_INFINITY) candidate = Math.min(candidate, this.maxCreated);
    candidate = Math.floor(candidate - this.marginS);
    if (this.floor !== undefined && candidate <= this.floor) return;
    this.floor = candidate;
    for (const [id, ts] of this.ids) {
      if (ts === null || ts <= candidate) this.ids.delete(id);
    }
  }

  /** After a full scan of the window: forget the ids of deleted messages. */
  retainOnly(present: Set<string>): void {
    for (const id of this.ids.keys()) if (!present.has(id)) this.ids.delete(id);
  }
}

/** `page` of size `limit`, whose first item is at `offset` of the whole list. */
type PagePick = { page: number; limit: number; offset: number };

/**
 * Pure: the page that holds index `anchor` (the last known message, -1 for none; its reply proves the known
 * prefix has not shifted) with as few known messages before it as possible, and room for 10 new ones.
 */
export function pickPage(anchor: number): PagePick {
  let best: PagePick = { page: 1, limit: 100, offset: 0 };
  if (anchor < 0) return best;
  let bestWaste = Number.POSITIVE_INFINITY;
  for (let limit = 100; limit >= 11; limit -= 1) {
    const waste = anchor % limit;
    if (limit - waste - 1 >= 10 && waste < bestWaste) {
      bestWaste = waste;
      best = { page: (anchor - waste) / limit + 1, limit, offset: anchor - waste };
      if (waste === 0) break;
    }
  }
  return best;
}

/**
 * Pure: the next page of a poll still behind (`known` read so far) that brings the most new ones: starting
 * where the known end (a deletion meanwhile shows in the final count check), or on the last known one.
 */
export function nextBulkPage(known: number, minLimit: number): PagePick {
  let best: PagePick = { page: 1, limit: 100, offset: 0 };
  if (known <= 0) return best;
  let bestNew = -1;
  for (let limit = 100; limit >= minLimit; limit -= 1) {
    // Starting at `known` exactly, when it falls on a page boundary of this size.
    if (known % limit === 0 && limit > bestNew) {
      best = { page: known / limit + 1, limit, offset: known };
      bestNew = limit;
    }
    // Or on the page that holds the last known message.
    const page = Math.floor((known - 1) / limit) + 1;
    const offset = (page - 1) * limit;
    if (offset + limit - known > bestNew) {
      best = { page, limit, offset };
      bestNew = offset + limit - known;
    }
  }
  return best;
}
