// The poller: an AsyncIterable of the messages of a thread (or a whole session) as they land, each yielded
// exactly once, in storage order. The caller ends it with an AbortSignal or by breaking out of its loop.
import type { Message, MessagePage, MessageType, Role, ListQuery } from '../api/types.js';
import type { ThreadTarget } from '../api/urls.js';
import { nextDelay, DEFAULT_SCHEDULE, type ScheduleOptions } from './schedule.js';
import { nextBulkPage, pickPage, SeenWindow } from './window.js';
import { isHttpError } from '../api/errors.js';
import type { ApiClient } from '../api/client.js';
import { PageGuard } from '../api/paging.js';
import { isFinalReply } from '../conversation/turn-state.js';
import { sleep } from '../../util/sleep.js';

/** The default of errors the loop rides out: the client's own retries gave up on a transient failure. */
export function isTransient(err: unknown): boolean {
  return isHttpError(err) && err.transient;
}

/** A 429: the key's requests are spent for now. */
export function isRateLimited(err: unknown): boolean {
  return isHttpError(err) && err.kind === 'rate_limited';
}

/** What the poller needs of an ApiClient; a foreign message stays in the window (so paging counts hold). */
export type MessageLister = Pick<ApiClient, 'listMessages'> &
  Partial<Pick<ApiClient, 'pollShare' | 'belongs'>>;

export interface FollowOptions {
  client: MessageLister;
  target: ThreadTarget;
  types?: MessageType[];
  role?: Role;
  untilFinal?: boolean;
  signal?: AbortSignal;
  schedule?: ScheduleOptions;
  /** Messages shown already (tail's backlog, in any order): the follow polls at once and yields nothing up to the newest. */
  after?: readonly Message[];
  /** Transient failed polls in a row before the error ends the follow: a service that stays down is not waited on forever. */
  maxFailedPolls?: number;
  onTransientError?: (err: unknown, failedPolls: number) => void;
  /** Told of each failure a poll's call rides out inside the client (a status line says the service is failing). */
  onRetrying?: (err: unknown) => void;
  /** What snaps the gap back to the shortest (default all; not the tool calls a wait shows in its spinner). */
  flowing?: (m: Message) => boolean;
}

export const MAX_FAILED_POLLS = 3;

// A shared budget's gap is looked at again every `recheckMs` while the poller sleeps: a gap decided in a
// crowded minute must not outlast the crowd.
/** Resolves at `from + gap()`, gap() read again every `recheckMs` (when given); rejects when `signal` aborts. */
export async function pause(
  from: number,
  gap: () => number,
  signal: AbortSignal | undefined,
  recheckMs?: number,
): Promise<void> {
  for (let left = from + gap() - Date.now(); left > 0; left = from + gap() - Date.now()) {
    await sleep(recheckMs === undefined ? left : Math.min(left, recheckMs), signal);
  }
}

/** How often a sleeping waiter looks at its share of the key's budget again. */
const SHARE_RECHECK_MS = 1000;
const BULK_MIN_LIMIT = 50;

/** Follows new messages. Iterate it once. */
export class Follower implements AsyncIterable<Message> {
  readonly window: SeenWindow;
  private readonly o: Required<Pick<FollowOptions, 'types' | 'role' | 'schedule'>> & FollowOptions;
  private finished = false;
  /** False until the first poll, when `after` asks for a full read of the window. */
  private primed: boolean;
  /** The newest created_at and the ids of `after`: where the first poll tells old from new. */
  private readonly seenUpToMs: number;
  private readonly shown: ReadonlySet<string>;
  /** For benchmarks. */
  requests = 0;
  private waking: AbortController | undefined;
  private woken = false;

  constructor(options: FollowOptions) {
    this.o = {
      types: ['message', 'final_message'],
      role: 'assistant',
      schedule: DEFAULT_SCHEDULE,
      ...options,
    };
    this.window = new SeenWindow();
    const after = options.after ?? [];
    // Carry on from the newest message shown: the cursor a margin behind its `ts`; the first poll reads that window.
    const newest = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a), Number.NEGATIVE_INFINITY);
    const newestTs = newest(after.flatMap((m) => (typeof m.ts === 'number' ? [m.ts] : [])));
    if (newestTs > Number.NEGATIVE_INFINITY) this.window.floor = Math.floor(newestTs - this.window.marginS);
    this.shown = new Set(after.map((m) => m.id));
    this.seenUpToMs = newest(after.map((m) => Date.parse(m.created_at)));
    this.primed = after.length === 0;
  }

  /** Polls now and quickly from here on, as if messages had just arrived (a chat's follow-up after a quiet spell). */
  wake(): void {
    this.woken = true;
    this.waking?.abort('wake');
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Message> {
    for await (const batch of this.batches()) yield* batch;
  }

  /** One array per poll (maybe empty), for callers that decide about a message by what the next poll brings. */
  async *batches(): AsyncGenerator<Message[]> {
    // A waiter on the key's budget while it polls: its gaps stretch to its share when others wait too.
    const share = this.o.client.pollShare?.();
    try {
      const started = Date.now();
      let quietSince = started;
      let errors = 0;
      /** Failed polls in a row that count towards giving up (errors less the 429s). */
      let failed = 0;
      let first = true;
      const shareNow = () => share && { gapMs: share.gapMs(), elapsedMs: Date.now() - started };
      while (!this.finished) {
        // After a backlog shown (not primed), the first poll goes at once.
        if (!(first && !this.primed) && !this.woken) {
          const from = Date.now();
          const quiet = first ? 0 : from - quietSince;
          const jitter = Math.random();
          // The first poll comes after the shortest gap, unless the key's budget is shared with other waiters.
          const gap = () =>
            first && !share
              ? this.o.schedule.minMs
              : nextDelay(quiet, errors, this.o.schedule, () => jitter, shareNow());
          await this.gap(from, gap, share && SHARE_RECHECK_MS);
        }
        if (this.woken) quietSince = Date.now();
        this.woken = false;
        first = false;
        const batch: Message[] = [];
        try {
          const poll = this.primed ? this.pollOnce() : this.fullScan();
          for await (const m of poll) {
            batch.push(m);
            if (this.finished) break;
          }
          this.primed = true;
          this.window.advance();
          errors = 0;
          failed = 0;
          if (this.o.flowing ? batch.some(this.o.flowing) : batch.length > 0) quietSince = Date.now();
        } catch (err) {
          // What the poll found before it failed is in the window: it must be handed on now or never.
          if (batch.length > 0) yield batch;
          if (this.o.signal?.aborted || !isTransient(err)) throw err;
          errors += 1;
          // A 429 is the key's budget spent by others, not a service that is down: it never ends the follow
          // (the client's retries have waited up to a minute already; --timeout or Ctrl-C bound it).
          if (!isRateLimited(err)) failed += 1;
          if (failed >= (this.o.maxFailedPolls ?? MAX_FAILED_POLLS)) throw err;
          this.o.onTransientError?.(err, failed);
          continue;
        }
        yield batch;
      }
    } finally {
      share?.close();
    }
  }

  /** Waits out the gap (see pause), cut short by wake(); the run's signal still ends it with its reason. */
  private async gap(from: number, gap: () => number, recheckMs: number | undefined): Promise<void> {
    const waking = new AbortController();
    this.waking = waking;
    const signal = this.o.signal ? AbortSignal.any([this.o.signal, waking.signal]) : waking.signal;
    try {
      await pause(from, gap, signal, recheckMs);
    } catch (err) {
      if (!waking.signal.aborted || this.o.signal?.aborted) throw err;
    } finally {
      this.waking = undefined;
    }
  }

  private async list(page: number, limit: number): Promise<MessagePage> {
    this.requests += 1;
    const { types: type, role, signal, onRetrying: onRetry } = this.o;
    const query: ListQuery = { type, role, direction: 'asc', page, limit, gts: this.window.floor };
    // The loop rides out failed polls itself, warning of each (see poll), under a deadline too.
    return this.o.client.listMessages(this.o.target, query, { signal, ownRetries: true, onRetry });
  }

  /**
   * A message from before the follow began, or not of the target: kept in the window (by fresh), never yielded.
   * `tiedOld`: one stored in the instant of the newest shown is old when the server listed it before one
   * shown (only the server's order tells messages of one instant apart).
   */
  private isOld(m: Message, tiedOld: boolean): boolean {
    const created = Date.parse(m.created_at);
    const before = created < this.seenUpToMs || (created === this.seenUpToMs && tiedOld);
    return this.o.client.belongs?.(this.o.target, m) === false || before || this.shown.has(m.id);
  }

  /** One poll from just before the first unknown message; a reply out of line with what is known reads the whole window. */
  private async *pollOnce(): AsyncGenerator<Message> {
    let known = this.window.size;
    let pick = pickPage(known - 1);
    for (;;) {
      const res = await this.list(pick.page, pick.limit);
      const fresh: Message[] = [];
      let aligned = true;
      res.items.forEach((m, i) => {
        const isKnown = this.window.has(m.id);
        if (pick.offset + i < known ? !isKnown : isKnown) aligned = false;
        else if (!isKnown) fresh.push(m);
      });
      const end = pick.offset + res.items.length;
      // Short of the count with nothing new on the page: read the window whole (paging there is guarded).
      if (!aligned || (fresh.length === 0 && end < res.meta.total)) {
        yield* this.fullScan();
        return;
      }
      yield* this.fresh(fresh, -1);
      if (this.finished) return;
      known += fresh.length;
      if (end >= res.meta.total) {
        // Everything counted is accounted for, unless something known was deleted meanwhile.
        if (known !== res.meta.total) yield* this.fullScan();
        return;
      }
      pick = nextBulkPage(known, BULK_MIN_LIMIT);
    }
  }

  /**
   * Reads the whole window, yields what is new, forgets what was deleted. After a backlog, it reads all
   * before it yields: where the last one shown is listed (maybe on a later page) tells old from new.
   */
  private async *fullScan(): AsyncGenerator<Message> {
    const present = new Set<string>();
    const guard = new PageGuard(`the messages of session ${this.o.target.sessionId}`);
    const listed: Message[] = [];
    const priming = !this.primed;
    for (let page = 1; ; page += 1) {
      if (page > 1) guard.allow(page);
      const res = await this.list(page, 100);
      const before = present.size;
      for (const m of res.items) present.add(m.id);
      guard.check(page, res, present.size - before);
      if (priming) listed.push(...res.items);
      else yield* this.fresh(res.items, -1);
      if (this.finished) return;
      if (res.items.length === 0 || page >= res.meta.total_pages) break;
    }
    if (priming) {
      const lastShown = listed.findLastIndex((m) => this.shown.has(m.id));
      yield* this.fresh(listed, lastShown);
      if (this.finished) return;
    }
    this.window.retainOnly(present);
  }

  /** The messages of a scan not yielded before, up to a final when the follow ends there. */
  private *fresh(items: readonly Message[], lastShown: number): Generator<Message> {
    for (const [i, m] of items.entries()) {
      if (this.window.has(m.id)) continue;
      this.window.add(m);
      if (this.isOld(m, i < lastShown)) continue;
      yield m;
      if (this.o.untilFinal && isFinalReply(m)) {
        this.finished = true;
        return;
      }
    }
  }
}

/** Iterates a follower until its first message (with untilFinal: the final one) and returns it. */
export async function firstMessage(follower: Follower): Promise<Message> {
  for await (const m of follower) return m;
  throw new Error('the poller stopped before a message arrived');
}
