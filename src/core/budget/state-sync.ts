// This process's part of a shared budget's state (its entries in flight, ended requests, tickets and
// waiters) written to the store one transaction at a time, and its view of the others' part.
import { randomBytes } from 'node:crypto';
import { capacity, lowerCap, shareGap, WaiterCount, type PacingOptions } from './limiter.js';
import { prune, slotsHeld, type SharedState } from './state.js';
import type { BudgetStore } from './budget-store.js';
import { FELL_BACK, type Fallback } from './fallback.js';
import { monotonicMs } from '../../util/clock.js';

/** A waiter entry lives at least this long without a refresh (its process polls far more often). */
const MIN_WAITER_TTL_MS = 30_000;
/** How old the view of the window may be when a waiter asks for its share. */
const VIEW_REFRESH_MS = 1000;

/** A request of this process waiting for a slot: its ticket in the store's queue, and its rank there. */
export interface Ticket {
  /** `<process id>.q<n>`. */
  id: string;
  /** The lowest rank is served first (see slot-queue.ts). */
  rank: number;
}

/** The window as of the last read: slots held, ends of requests in it, and the limit (lowered or not). */
export interface WindowSeen {
  held: number;
  ended: number[];
  limit: number;
  /** When the service last answered a request of the key (SharedState.answered). */
  answered?: number;
}

/**
 * The guarantee of limiter.ts across processes: a request holds its slot while in flight and for `windowMs`
 * after it ends, whichever process sent it. A process cannot say when it dies, so its entries in flight and
 * its tickets carry a lease that it renews while they last (every transaction renews them, and a timer does
 * meanwhile). An entry whose lease ran out counts as ended when the lease did: its request reached the
 * server by then if at all, so a process killed mid-request holds its slots for at most `leaseMs` + a window.
 */
export class StateSync {
  readonly processId = randomBytes(6).toString('hex');
  private seq = 0;
  /** Our entries in flight, and the end times of ours not yet written (-1: given back unsent). */
  private readonly flight = new Set<string>();
  private readonly ends = new Map<string, number>();
  /** This process's waiters (pollers), written with a liveness deadline so the others' shares count them. */
  readonly waiting = new WaiterCount();
  /** Waiters of other processes, and the window, as of the last read. */
  othersWaiting = 0;
  view: WindowSeen;
  private viewAt = 0;
  /** The latest grant of a request of ours the service refused with 429, not yet written (see Cap). */
  private refusedGrant: number | undefined;
  /** When the service last answered a request of ours, not yet written. */
  private answeredAt: number | undefined;
  /** When our requests were refused with 429, not yet written (the store keeps an hour of them). */
  private readonly refusals: number[] = [];
  /** What this process is, for `agents budget` (SharedPacingOptions.label); written beside its entries. */
  label: string | undefined;
  /** A syncSoon is due. */
  private syncing = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** Transactions queued that have not yet applied our local changes: no need to queue another. */
  private unapplied = 0;
  private lastApplied = 0;
  private renewal: NodeJS.Timeout | undefined;
  /** Lock + read + write, for the figure the benchmark prints. */
  readonly cost = { transactions: 0, totalMs: 0 };

  constructor(
    private readonly store: BudgetStore,
    private readonly pacing: PacingOptions,
    private readonly leaseMs: number,
    private readonly fallback: Fallback,
    /** The tickets of this process's requests waiting for a slot, in rank order. */
    private readonly tickets: () => readonly Ticket[],
  ) {
    this.view = { held: 0, ended: [], limit: pacing.limit };
  }

  /** A new id of this process: `<process id>.<prefix><n>`. */
  nextId(prefix: string): string {
    return `${this.processId}.${prefix}${(this.seq += 1)}`;
  }

  /** Inside a transaction: a new entry of ours in flight in `s`, leased from `now`. */
  enter(s: SharedState, now: number): string {
    const id = this.nextId('');
    s.flight[id] = now + this.leaseMs;
    this.flight.add(id);
    return id;
  }

  /**
   * Ends our entry `id`: at `end`, or -1 for a slot given back unsent; `refusedAt`: granted then, refused by
   * a 429; `answeredAt`: the service answered it then.
   */
  giveBack(id: string, end: number, refusedAt?: number, answeredAt?: number): void {
    if (answeredAt !== undefined) this.answeredAt = Math.max(this.answeredAt ?? answeredAt, answeredAt);
    if (refusedAt !== undefined) {
      this.refusedGrant = Math.max(this.refusedGrant ?? refusedAt, refusedAt);
      this.refusals.push(end >= 0 ? end : refusedAt);
    }
    this.flight.delete(id);
    this.ends.set(id, end);
    this.syncSoon();
  }

  /**
   * Writes our ended requests once this turn of the event loop is over, unless a transaction of this turn
   * took them along: a command's next request, made as soon as the last one ended, takes its slot in the
   * same transaction, so sequential requests cost one each instead of two.
   */
  private syncSoon(): void {
    if (this.syncing) return;
    this.syncing = true;
    setImmediate(() => {
      this.syncing = false;
      if (this.ends.size > 0) this.sync();
    });
  }

  /** Writes our local changes (ends, leases, the waiter count) soon, unless a transaction queued will. */
  sync(): void {
    if (this.fallback.active || this.unapplied > 0) return;
    void this.transact(() => undefined);
  }

  /** Renews our leases while we have entries in flight or tickets in the queue. */
  startRenewal(): void {
    if (this.renewal !== undefined) return;
    const every = Math.max(10, Math.floor(this.leaseMs / 3));
    this.renewal = setInterval(() => {
      if ((this.flight.size === 0 && this.tickets().length === 0) || this.fallback.active) {
        clearInterval(this.renewal);
        this.renewal = undefined;
        return;
      }
      if (this.store.now() - this.lastApplied >= every) this.sync();
    }, every);
    this.renewal.unref();
  }

  /** Runs `fn` on the current state under the lock, one transaction of this process at a time. */
  transact<T>(fn: (s: SharedState, now: number) => T): Promise<T | typeof FELL_BACK> {
    this.unapplied += 1;
    let applied = false;
    const apply = () => {
      if (!applied) this.unapplied -= 1;
      applied = true;
    };
    const run = this.queue.then(async () => {
      if (this.fallback.active) {
        apply();
        return FELL_BACK;
      }
      return this.locked(fn, apply);
    });
    this.queue = run.catch(() => undefined).finally(apply);
    return run;
  }

  private async locked<T>(
    fn: (s: SharedState, now: number) => T,
    apply: () => void,
  ): Promise<T | typeof FELL_BACK> {
    const started = monotonicMs();
    try {
      const result = await this.store.transact((s, now) => {
        apply();
        this.applyLocal(s, now);
        const out = fn(s, now);
        this.noteView(s, now);
        this.lastApplied = now;
        return out;
      });
      this.cost.transactions += 1;
      this.cost.totalMs += monotonicMs() - started;
      this.fallback.answered();
      return result;
    } catch (err) {
      if (this.fallback.begin(err)) this.forget();
      return FELL_BACK;
    }
  }

  /** After a fallback: nothing of ours is in the store to renew or end. */
  private forget(): void {
    this.flight.clear();
    this.ends.clear();
    clearInterval(this.renewal);
    this.renewal = undefined;
  }

  /** Our part of the state: ends of our requests, leases of those in flight, our tickets and waiter count. */
  private applyLocal(s: SharedState, now: number): void {
    for (const [id, end] of this.ends) {
      // Not in flight any more: its lease lapsed and it was counted as ended then, later than the truth.
      if (!(id in s.flight)) continue;
      delete s.flight[id];
      if (end >= 0) s.ended.push(end);
    }
    this.ends.clear();
    for (const id of this.flight) s.flight[id] = now + this.leaseMs;
    // Our tickets: those of the requests still waiting, renewed; those served or gone, out.
    const prefix = `${this.processId}.`;
    for (const id of Object.keys(s.queue)) if (id.startsWith(prefix)) delete s.queue[id];
    for (const t of this.tickets()) s.queue[t.id] = [t.rank, now + this.leaseMs];
    prune(s, now, this.pacing.windowMs);
    const { limit } = this.pacing;
    if (this.refusedGrant !== undefined) s.cap = lowerCap(limit, s.cap, now, this.refusedGrant);
    this.refusedGrant = undefined;
    if (this.refusals.length > 0) s.refused = [...(s.refused ?? []), ...this.refusals.splice(0)];
    if (this.answeredAt !== undefined) s.answered = Math.max(s.answered ?? 0, this.answeredAt);
    this.answeredAt = undefined;
    if (s.cap !== undefined && capacity(limit, s.cap, now) >= limit) delete s.cap;
    const mine = this.waiting.count;
    if (mine > 0) {
      const others = this.othersWaiting;
      const ttl = Math.max(MIN_WAITER_TTL_MS, 3 * shareGap(mine + others, this.pacing));
      s.waiters[this.processId] = [mine, now + ttl];
    } else {
      delete s.waiters[this.processId];
    }
    this.nameSelf(s);
  }

  /** Our label beside our entries while we have any; prune takes it away with the last of them. */
  private nameSelf(s: SharedState): void {
    const prefix = `${this.processId}.`;
    const present =
      s.waiters[this.processId] !== undefined ||
      Object.keys(s.flight).some((id) => id.startsWith(prefix)) ||
      Object.keys(s.queue).some((id) => id.startsWith(prefix));
    if (present && this.label !== undefined) (s.who ??= {})[this.processId] = this.label;
    else if (s.who !== undefined) {
      delete s.who[this.processId];
      if (Object.keys(s.who).length === 0) delete s.who;
    }
  }

  /** What the other waiters and the window look like, for the shares. */
  private noteView(s: SharedState, now: number): void {
    let others = 0;
    for (const [id, [n]] of Object.entries(s.waiters)) if (id !== this.processId) others += n;
    this.othersWaiting = others;
    this.view = {
      held: slotsHeld(s),
      ended: [...s.ended],
      limit: capacity(this.pacing.limit, s.cap, now),
      ...(s.answered !== undefined ? { answered: s.answered } : {}),
    };
    this.viewAt = now;
  }

  /**
   * A waiter that sleeps long makes no request to learn what the others did meanwhile: at most once a
   * second it reads the store (no lock), so its share follows the window.
   */
  refreshView(): void {
    const now = this.store.now();
    if (now - this.viewAt < VIEW_REFRESH_MS) return;
    this.viewAt = now;
    this.store.peek().then(
      (s) => {
        const now = this.store.now();
        prune(s, now, this.pacing.windowMs);
        this.noteView(s, now);
      },
      // The next transaction reports a broken store; until then the last view serves.
      () => undefined,
    );
  }
}
