// This process's part of a shared budget's state, written one transaction at a time, and its view of the rest;
// while the store cannot be used, the machine's budget (under Redis) or the process's own paces instead.
import { randomBytes } from 'node:crypto';
import { capacity, lowerCap, shareGap, WaiterCount, type PacingOptions, type WindowView } from './limiter.js';
import { BrokenState, prune, slotsHeld, type SharedState } from './state.js';
import type { BudgetStore } from './budget-store.js';
import { monotonicMs } from '../../util/clock.js';
import { errorMessage } from '../../util/text.js';

/** What a transaction returns once the budget fell back: nothing was done. */
export const FELL_BACK = Symbol('fell back');

const errText = (err: unknown) =>
  err instanceof BrokenState
    ? `${err.message}; ${err.newer ? 'use that version, or delete it,' : 'delete it'} to share the budget again`
    : ((err as NodeJS.ErrnoException).code ?? errorMessage(err));

/** Its process polls far more often. */
const MIN_WAITER_TTL_MS = 30_000;
const VIEW_REFRESH_MS = 1000;

/** A request of ours waiting for a slot: its ticket (`<process id>.q<n>`); the lowest rank goes first. */
export interface Ticket {
  id: string;
  rank: number;
}

/** The window as of the last read, its limit (lowered or not), and SharedState.answered. */
interface WindowSeen extends WindowView {
  limit: number;
  answered?: number;
}

/** A process cannot say when it dies: its entries carry a lease it renews, so one killed mid-request holds
 * its slots for at most `leaseMs` + a window. */
export class StateSync {
  readonly processId = randomBytes(6).toString('hex');
  private seq = 0;
  /** Our entries in flight, and ends not yet written (-1: unsent). */
  private readonly flight = new Set<string>();
  private readonly ends = new Map<string, number>();
  readonly waiting = new WaiterCount();
  othersWaiting = 0;
  view: WindowSeen;
  private viewAt = 0;
  /** Not yet written: the latest grant of ours refused with 429, our last answer, and our 429s. */
  private refusedGrant: number | undefined;
  private answeredAt: number | undefined;
  private readonly refusals: number[] = [];
  label: string | undefined;
  private syncing = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** Transactions queued that will apply our local changes: no need to queue another. */
  private unapplied = 0;
  private lastApplied = 0;
  private renewal: NodeJS.Timeout | undefined;
  readonly cost = { transactions: 0, totalMs: 0 };
  fellBack = false;
  private retryAt = 0;
  /** Once a run of failures. */
  private told = false;
  onFallback: ((message: string) => void) | undefined;
  onRejoin: ((message: string) => void) | undefined;

  constructor(
    private readonly store: BudgetStore,
    private readonly pacing: PacingOptions,
    private readonly o: { leaseMs: number; rejoinMs: number },
    /** Whether the fallback is the machine's budget (the file under a Redis). */
    private readonly machine: boolean,
    private readonly tickets: () => readonly Ticket[],
  ) {
    this.view = { held: 0, ended: [], limit: pacing.limit };
  }

  nextId(prefix: string): string {
    return `${this.processId}.${prefix}${(this.seq += 1)}`;
  }

  /** Inside a transaction: a new entry of ours in flight. */
  enter(s: SharedState, now: number): string {
    const id = this.nextId('');
    s.flight[id] = now + this.o.leaseMs;
    this.flight.add(id);
    return id;
  }

  /** Ends our entry `id` at `end` (-1: unsent); `refusedAt`: granted then, refused by a 429; `answeredAt`. */
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

  /** After this turn: a command's next request then takes its slot in the same transaction (one, not two). */
  private syncSoon(): void {
    if (this.syncing) return;
    this.syncing = true;
    setImmediate(() => {
      this.syncing = false;
      if (this.ends.size > 0) this.sync();
    });
  }

  /** Writes our local changes soon, unless a transaction queued will. */
  sync(): void {
    if (this.fellBack || this.unapplied > 0) return;
    void this.transact(() => undefined);
  }

  /** While we have entries in flight or tickets. */
  startRenewal(): void {
    if (this.renewal !== undefined) return;
    const every = Math.max(10, Math.floor(this.o.leaseMs / 3));
    this.renewal = setInterval(() => {
      if ((this.flight.size === 0 && this.tickets().length === 0) || this.fellBack) {
        clearInterval(this.renewal);
        this.renewal = undefined;
        return;
      }
      if (this.store.now() - this.lastApplied >= every) this.sync();
    }, every);
    this.renewal.unref();
  }

  /** One transaction of this process at a time. */
  transact<T>(fn: (s: SharedState, now: number) => T): Promise<T | typeof FELL_BACK> {
    this.unapplied += 1;
    let applied = false;
    const apply = () => {
      if (!applied) this.unapplied -= 1;
      applied = true;
    };
    const run = this.queue.then(async () => {
      if (this.fellBack) {
        apply();
        return FELL_BACK;
      }
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
        this.rejoin();
        return result;
      } catch (err) {
        this.fallBack(err);
        return FELL_BACK;
      }
    });
    this.queue = run.catch(() => undefined).finally(apply);
    return run;
  }

  /** Whether the fallback paces now; a store that recovers is tried again `rejoinMs` after it failed. */
  pacesAlone(): boolean {
    if (!this.fellBack) return false;
    if (!this.store.recovers || Date.now() < this.retryAt) return true;
    this.fellBack = false;
    return false;
  }

  private fallBack(err: unknown): void {
    if (this.fellBack) return;
    this.fellBack = true;
    this.retryAt = Date.now() + this.o.rejoinMs;
    this.flight.clear();
    this.ends.clear();
    clearInterval(this.renewal);
    this.renewal = undefined;
    if (this.told) return;
    this.told = true;
    const alone = this.machine ? "paces itself with this machine's budget" : 'paces itself alone';
    const again = this.store.recovers ? ` until it answers again` : '';
    this.onFallback?.(
      `the request budget shared with other agents processes (${this.store.where}) cannot be used ` +
        `(${errText(err)}); this process ${alone}${again}`,
    );
  }

  private rejoin(): void {
    if (!this.told) return;
    this.told = false;
    this.onRejoin?.(`the request budget at ${this.store.where} answers again; this process shares it again`);
  }

  private applyLocal(s: SharedState, now: number): void {
    for (const [id, end] of this.ends) {
      // Not in flight any more: its lease lapsed and it was counted as ended then, later than the truth.
      if (!(id in s.flight)) continue;
      delete s.flight[id];
      if (end >= 0) s.ended.push(end);
    }
    this.ends.clear();
    for (const id of this.flight) s.flight[id] = now + this.o.leaseMs;
    // Those of requests still waiting, renewed; those served or gone, out.
    const prefix = `${this.processId}.`;
    for (const id of Object.keys(s.queue)) if (id.startsWith(prefix)) delete s.queue[id];
    for (const t of this.tickets()) s.queue[t.id] = [t.rank, now + this.o.leaseMs];
    const mine = this.waiting.count;
    const ttl = Math.max(MIN_WAITER_TTL_MS, 3 * shareGap(mine + this.othersWaiting, this.pacing));
    if (mine > 0) s.waiters[this.processId] = [mine, now + ttl];
    else delete s.waiters[this.processId];
    // Our label; prune drops it while we have nothing in the state.
    if (this.label !== undefined) (s.who ??= {})[this.processId] = this.label;
    else if (s.who !== undefined) delete s.who[this.processId];
    prune(s, now, this.pacing.windowMs);
    const { limit } = this.pacing;
    if (this.refusedGrant !== undefined) s.cap = lowerCap(limit, s.cap, now, this.refusedGrant);
    this.refusedGrant = undefined;
    if (this.refusals.length > 0) s.refused = [...(s.refused ?? []), ...this.refusals.splice(0)];
    if (this.answeredAt !== undefined) s.answered = Math.max(s.answered ?? 0, this.answeredAt);
    this.answeredAt = undefined;
    if (s.cap !== undefined && capacity(limit, s.cap, now) >= limit) delete s.cap;
  }

  private noteView(s: SharedState, now: number): void {
    const others = Object.entries(s.waiters).filter(([id]) => id !== this.processId);
    this.othersWaiting = others.reduce((sum, [, [n]]) => sum + n, 0);
    this.view = {
      held: slotsHeld(s),
      ended: [...s.ended],
      limit: capacity(this.pacing.limit, s.cap, now),
      ...(s.answered !== undefined ? { answered: s.answered } : {}),
    };
    this.viewAt = now;
  }

  /** A waiter that sleeps long learns what the others did from a read (no lock) at most once a second. */
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
