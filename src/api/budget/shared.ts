// The key's budget shared by every agents process on the machine that uses the same origin and key: the
// sliding window of pacing.ts kept in a small state file, read, modified and written under a lock, so that
// parallel jobs (a script that starts one session per task, a CI fan-out) together stay under the limit.
//
// The guarantee of pacing.ts holds across processes: a request holds its slot while in flight and for
// `windowMs` after it ends, whichever process sent it. A process cannot say when it dies, so its entries
// in flight carry a lease that it renews while the request lasts (every request it makes renews them, and
// a timer does while one is in flight). An entry whose lease ran out counts as ended when the lease did:
// its request reached the server by then if at all, so the slot is held one window past the lease and
// no longer. A process killed mid-request therefore holds its slots for at most `leaseMs` + one window.
//
// Requests waiting for a slot queue in the same state, each with a ticket under a lease: a slot that frees
// goes to the longest waiting request of any process, and a request a reply in hand waits on (the read of a
// CI job's result) goes before the polls.
//
// Waiters (pollers) register in the same file with a count and a liveness deadline, so that each can
// stretch its poll gap to its share of the budget (pacing.ts shareGap). Every process also paces itself
// with its own in-process window; when the file is broken or cannot be written it falls back to that one,
// with one warning.
import { randomBytes } from 'node:crypto';
import { sleep } from '../../util/sleep.js';
import {
  budgetGap,
  capacity,
  CAP_RECOVERY_MS,
  lowerCap,
  SHARE_MARGIN,
  shareGap,
  SlidingWindowLimiter,
  WaiterCount,
  type AcquireOptions,
  type Limiter,
  type PacingOptions,
  type PollShare,
  type Release,
} from './limiter.js';
import { BrokenState, grantable, nextFree, prune, slotsHeld, type SharedState } from './state.js';
import { FileStore } from './file-store.js';
import { RedisStore } from './redis-store.js';
import type { BudgetStore } from './budget-store.js';

/** Where the shared state lives, and who hears about a fallback. */
export interface SharedPacingOptions {
  /** Directory of the state files (the CLI passes `<state dir>/pacing`); made with mode 0700. */
  dir: string;
  /**
   * A Redis (`redis://…`, `rediss://…`) that every machine of a fleet reaches: the budget is kept there,
   * and the file of `dir` is the machine's budget while Redis cannot be reached.
   */
  url?: string;
  /** Told once, when this process gives up on the shared file and paces itself alone. */
  onFallback?: (message: string) => void;
  /** How long an entry in flight is vouched for before its process must renew it. Default 5000. */
  leaseMs?: number;
  /** Told when the Redis of `url` answers again after a fallback. */
  onRejoin?: (message: string) => void;
  /** How long after it failed a store that recovers (Redis) is tried again. Default REJOIN_MS. */
  rejoinMs?: number;
  /**
   * Slots of the window kept aside per waiter on the key, beyond SHARE_MARGIN's headroom (0 by default;
   * sharedLimiterFor keeps RESERVE_PER_WAITER).
   */
  reservePerWaiter?: number;
}

/** A waiter entry lives at least this long without a refresh (its process polls far more often). */
const MIN_WAITER_TTL_MS = 30_000;
/** How old the view of the window may be when a waiter asks for its share. */
const VIEW_REFRESH_MS = 1000;
/**
 * Slots of the window kept aside per waiter on a shared key (the machine's file or Redis). Jobs that wait
 * together end together (a CI run's, a script's fan-out), and each then reads its session for the result
 * (--json, GitHub Actions): with SHARE_MARGIN's 9 % left over, 32 waiters' reads and last polls queued for
 * seconds behind a spent window. 0.4 a waiter is SHARE_MARGIN's 1.1 made about 1.26 for 32 waiters, 1.12
 * for 4, whose few reads fit in the 9 %. bench:fanout, 32 waiters: over 4 machines in Redis 1.54x to 1.70x
 * the floor without it, 0.99x and 1.30x with it; on one machine 1.44x and 1.45x without, 1.11x and 1.33x
 * with it.
 */
export const RESERVE_PER_WAITER = 0.4;
/** A store that recovers (Redis) is tried again this long after it failed. */
export const REJOIN_MS = 5000;
/**
 * An urgent request ranks as if it had waited this much longer: ahead of every poll that started waiting
 * less than a window before it.
 */
const URGENT_LEAD_MS = 60_000;
/** How often a request looks again when the free slots are due to requests of other processes ahead of it. */
const QUEUE_RECHECK_MS = 200;

const BROKEN = Symbol('broken');

/** A request of this process waiting for a slot in the file, with its ticket in the store's queue. */
interface SlotWaiter {
  resolve: (id: string | undefined) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  /** Its ticket: `<process id>.q<n>`. */
  id: string;
  /** When it started waiting, less URGENT_LEAD_MS when urgent: the lowest rank is served first. */
  rank: number;
}

const errText = (err: unknown) =>
  err instanceof BrokenState
    ? `${err.message}; delete it to share the budget again`
    : ((err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err)));

/** The budget of one origin and key, shared through a store with every process that uses them. */
export class SharedLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Where the store is (a path, or a Redis address without its password). */
  readonly path: string;
  /** This process's own window: always applied, and all that is left after a fallback. */
  private readonly local: SlidingWindowLimiter;
  private readonly leaseMs: number;
  private readonly rejoinMs: number;
  /** Slots kept aside per waiter (SharedPacingOptions.reservePerWaiter). */
  readonly reservePerWaiter: number;
  private readonly processId = randomBytes(6).toString('hex');
  /** While a store that recovers cannot be used: when to try it again. */
  private retryAt = 0;
  /** The fallback was told (once a run of failures). */
  private told = false;
  private seq = 0;
  /** Our entries in flight, and the end times of ours not yet written (-1: given back unsent). */
  private readonly flight = new Set<string>();
  private readonly ends = new Map<string, number>();
  private readonly waiting = new WaiterCount();
  /** Requests of this process waiting for a slot in the file, first come first served. */
  private readonly pending: SlotWaiter[] = [];
  private pumping = false;
  /** A syncSoon is due. */
  private syncing = false;
  private wakePump: (() => void) | undefined;
  /** Waiters of other processes, and the window, as of the last read. */
  private othersWaiting = 0;
  private view: { held: number; ended: number[]; limit: number } = { held: 0, ended: [], limit: 0 };
  /** The latest grant of a request of ours the service refused with 429, not yet written (see Cap). */
  private refusedGrant: number | undefined;
  private viewAt = 0;
  private broken = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** Transactions queued that have not yet applied our local changes: no need to queue another. */
  private unapplied = 0;
  private lastApplied = 0;
  private renewal: NodeJS.Timeout | undefined;
  /** Told once, when the process gives up on the store. */
  onFallback: ((message: string) => void) | undefined;
  /** Told when a store that recovers is used again after a fallback. */
  onRejoin: ((message: string) => void) | undefined;
  /** Lock + read + write, for the figure the benchmark prints. */
  readonly cost = { transactions: 0, totalMs: 0 };

  constructor(
    pacing: PacingOptions,
    private readonly store: BudgetStore,
    o: Pick<SharedPacingOptions, 'onFallback' | 'onRejoin' | 'leaseMs' | 'rejoinMs' | 'reservePerWaiter'>,
    /** What paces the process while a store that recovers cannot be used (the machine's file). */
    private readonly fallback?: Limiter,
  ) {
    this.local = new SlidingWindowLimiter(pacing);
    this.limit = this.local.limit;
    this.windowMs = this.local.windowMs;
    this.leaseMs = o.leaseMs ?? 5000;
    this.rejoinMs = o.rejoinMs ?? REJOIN_MS;
    this.reservePerWaiter = o.reservePerWaiter ?? 0;
    this.onFallback = o.onFallback;
    this.onRejoin = o.onRejoin;
    this.path = store.where;
    this.view.limit = this.limit;
  }

  /** Whether this process gave up on the store and paces itself without it. */
  get fellBack(): boolean {
    return this.broken;
  }

  async acquire(signal?: AbortSignal, o: AcquireOptions = {}): Promise<Release> {
    if (this.broken) {
      // A store that may come back is tried again now and then; meanwhile the fallback paces.
      if (!this.store.recovers || Date.now() < this.retryAt)
        return (this.fallback ?? this.local).acquire(signal, o);
      this.broken = false;
    }
    const own = await this.local.acquire(signal, o);
    if (this.broken) return own;
    let id: string | undefined;
    try {
      id = await this.takeSlot(signal, o.urgent === true);
    } catch (err) {
      own(false);
      throw err;
    }
    // Fell back while waiting: the process's own window has counted this request from the start.
    if (id === undefined) return own;
    const entry = id;
    const granted = this.store.now();
    let done = false;
    return (sent = true, refused = false) => {
      if (done) return;
      done = true;
      own(sent, refused);
      if (refused) this.refusedGrant = Math.max(this.refusedGrant ?? granted, granted);
      this.giveBack(entry, sent ? this.store.now() : -1);
    };
  }

  register(): PollShare {
    // Written at once (and with every request after), so that the others' shares follow the count.
    return this.waiting.register(
      (n) => {
        if (this.broken) return this.local.gapFor(n);
        this.refreshView();
        const all = n + this.othersWaiting;
        const pacing = { limit: this.view.limit, windowMs: this.windowMs };
        return budgetGap(all, pacing, this.view, this.store.now(), this.shareMargin(all));
      },
      () => this.sync(),
    );
  }

  /** The headroom on each of `waiters` shares: SHARE_MARGIN, and the slots kept aside for them. */
  shareMargin(waiters: number): number {
    const limit = this.view.limit;
    const kept = Math.min(limit / 2, this.reservePerWaiter * waiters);
    return (SHARE_MARGIN * limit) / (limit - kept);
  }

  /** Ends our entry `id`: at `end`, or -1 for a slot given back unsent. */
  private giveBack(id: string, end: number): void {
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

  /**
   * A slot in the store: its entry id, or undefined after a fallback. First come, first served across
   * every process of the store, urgent requests first (see SlotWaiter.rank).
   */
  private takeSlot(signal: AbortSignal | undefined, urgent: boolean): Promise<string | undefined> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const waiter: SlotWaiter = {
        resolve,
        signal,
        id: `${this.processId}.q${(this.seq += 1)}`,
        rank: this.store.now() - (urgent ? URGENT_LEAD_MS : 0),
        onAbort: () => {
          const at = this.pending.indexOf(waiter);
          if (at >= 0) this.pending.splice(at, 1);
          // Nobody left to wait for a slot: the pump's sleep must not keep the process alive.
          if (this.pending.length === 0) this.wakePump?.();
          // Its ticket leaves the queue, so that it holds up no other process's request.
          this.sync();
          reject(signal?.reason as Error);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      // In rank order: an urgent request goes before the polls of this process that wait.
      const at = this.pending.findIndex((w) => w.rank > waiter.rank);
      this.pending.splice(at < 0 ? this.pending.length : at, 0, waiter);
      this.startRenewal();
      void this.pump();
    });
  }

  /**
   * The one loop of this process that takes slots from the store: each transaction grants the free slots
   * that the queue gives to its waiters (grantable), then sleeps until the first moment another can free.
   * One process's many waiters (agents wait on many sessions) cost one read-modify-write per wake-up, not
   * one each. The queue is what makes the store first come, first served: without it, the process that
   * happened to wake first when a slot freed took it, and a poll of 32 over 4 machines waited 20 s while
   * requests asked for after it went (bench:fanout --timeline).
   */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.pending.length > 0) {
        const got = await this.transact((s, now) => {
          const n = grantable(s, capacity(this.limit, s.cap, now), this.pending);
          const ids: string[] = [];
          for (const w of this.pending.slice(0, n)) {
            delete s.queue[w.id];
            const id = `${this.processId}.${(this.seq += 1)}`;
            s.flight[id] = now + this.leaseMs;
            this.flight.add(id);
            ids.push(id);
          }
          if (ids.length > 0) this.startRenewal();
          return { ids, wakeAt: n < this.pending.length ? this.nextTry(s, now) : 0 };
        });
        if (got === BROKEN) {
          for (const w of this.pending.splice(0)) this.handOut(w, undefined);
          return;
        }
        for (const id of got.ids) {
          const w = this.pending.shift();
          // Its caller left while the file was read: the slot goes back unused.
          if (w === undefined) this.giveBack(id, -1);
          else this.handOut(w, id);
        }
        // Until a slot may be free: other processes compute the same moment, so a little jitter keeps them
        // off the lock together, and one that wakes to a full window (another took the slot) reads it
        // without the lock and sleeps again. With dozens of processes waiting on a spent window, each freed
        // slot cost a transaction of each, in turn under the lock, and the lock waits grew past LOCK_WAIT_MS.
        let wakeAt = got.wakeAt;
        while (this.pending.length > 0) {
          const stop = new AbortController();
          this.wakePump = () => stop.abort();
          await sleep(Math.max(0, wakeAt - this.store.now()) + 1 + Math.random() * 20, stop.signal).catch(
            () => undefined,
          );
          this.wakePump = undefined;
          if (this.pending.length === 0 || !this.store.recovers) break;
          const full = await this.store.peek().then(
            (seen) => {
              const now = this.store.now();
              prune(seen, now, this.windowMs);
              const free = grantable(seen, capacity(this.limit, seen.cap, now), this.pending);
              return free > 0 ? 0 : this.nextTry(seen, now);
            },
            // The transaction says what is wrong with the store.
            () => 0,
          );
          if (full === 0) break;
          wakeAt = full;
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * When a waiter of this process may be served next: when the next slot frees, or soon when slots are free
   * but due to other processes' requests ahead (they take them when they wake; one that died leaves the
   * queue when its ticket's lease runs out).
   */
  private nextTry(s: SharedState, now: number): number {
    if (slotsHeld(s) < capacity(this.limit, s.cap, now)) return now + QUEUE_RECHECK_MS;
    // A lowered limit grows back a slot at a time: one may come free that way before a request's does.
    const grows = s.cap === undefined ? Number.POSITIVE_INFINITY : now + CAP_RECOVERY_MS;
    return Math.min(nextFree(s, now, this.windowMs), grows);
  }

  private handOut(w: SlotWaiter, id: string | undefined): void {
    w.signal?.removeEventListener('abort', w.onAbort);
    w.resolve(id);
  }

  /** Writes our local changes (ends, leases, the waiter count) soon, unless a transaction queued will. */
  private sync(): void {
    if (this.broken || this.unapplied > 0) return;
    void this.transact(() => undefined);
  }

  private startRenewal(): void {
    if (this.renewal !== undefined) return;
    const every = Math.max(10, Math.floor(this.leaseMs / 3));
    this.renewal = setInterval(() => {
      // Entries in flight and tickets in the queue are vouched for while they last.
      if ((this.flight.size === 0 && this.pending.length === 0) || this.broken) {
        clearInterval(this.renewal);
        this.renewal = undefined;
        return;
      }
      if (this.store.now() - this.lastApplied >= every) this.sync();
    }, every);
    this.renewal.unref();
  }

  /** Runs `fn` on the current state under the lock, one transaction of this process at a time. */
  private transact<T>(fn: (s: SharedState, now: number) => T): Promise<T | typeof BROKEN> {
    this.unapplied += 1;
    let applied = false;
    const apply = () => {
      if (!applied) this.unapplied -= 1;
      applied = true;
    };
    const run = this.queue.then(async () => {
      if (this.broken) {
        apply();
        return BROKEN;
      }
      return this.locked(fn, apply);
    });
    this.queue = run.catch(() => undefined).finally(apply);
    return run;
  }

  private async locked<T>(
    fn: (s: SharedState, now: number) => T,
    apply: () => void,
  ): Promise<T | typeof BROKEN> {
    const started = performance.now();
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
      this.cost.totalMs += performance.now() - started;
      if (this.told) {
        this.told = false;
        this.onRejoin?.(
          `the request budget at ${this.store.where} answers again; this process shares it again`,
        );
      }
      return result;
    } catch (err) {
      this.fallBack(err);
      return BROKEN;
    }
  }

  /** Our part of the state: ends of our requests, leases of those in flight, our waiter count. */
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
    for (const w of this.pending) s.queue[w.id] = [w.rank, now + this.leaseMs];
    prune(s, now, this.windowMs);
    if (this.refusedGrant !== undefined) s.cap = lowerCap(this.limit, s.cap, now, this.refusedGrant);
    this.refusedGrant = undefined;
    if (s.cap !== undefined && capacity(this.limit, s.cap, now) >= this.limit) delete s.cap;
    const mine = this.waiting.count;
    if (mine > 0) {
      const others = this.othersWaiting;
      const ttl = Math.max(MIN_WAITER_TTL_MS, 3 * shareGap(mine + others, this));
      s.waiters[this.processId] = [mine, now + ttl];
    } else {
      delete s.waiters[this.processId];
    }
  }

  /** What the other waiters and the window look like, for the shares. */
  private noteView(s: SharedState, now: number): void {
    let others = 0;
    for (const [id, [n]] of Object.entries(s.waiters)) if (id !== this.processId) others += n;
    this.othersWaiting = others;
    this.view = { held: slotsHeld(s), ended: [...s.ended], limit: capacity(this.limit, s.cap, now) };
    this.viewAt = now;
  }

  /**
   * A waiter that sleeps long makes no request to learn what the others did meanwhile: at most once a
   * second it reads the store (no lock), so its share follows the window.
   */
  private refreshView(): void {
    const now = this.store.now();
    if (now - this.viewAt < VIEW_REFRESH_MS) return;
    this.viewAt = now;
    this.store.peek().then(
      (s) => {
        const now = this.store.now();
        prune(s, now, this.windowMs);
        this.noteView(s, now);
      },
      // The next transaction reports a broken store; until then the last view serves.
      () => undefined,
    );
  }

  private fallBack(err: unknown): void {
    if (this.broken) return;
    this.broken = true;
    this.retryAt = Date.now() + this.rejoinMs;
    this.flight.clear();
    this.ends.clear();
    clearInterval(this.renewal);
    this.renewal = undefined;
    if (this.told) return;
    this.told = true;
    const alone = this.fallback ? "paces itself with this machine's budget" : 'paces itself alone';
    const again = this.store.recovers ? ` until it answers again` : '';
    this.onFallback?.(
      `the request budget shared with other agents processes (${this.store.where}) cannot be used ` +
        `(${errText(err)}); this process ${alone}${again}`,
    );
  }
}

/** A limiter sharing the budget of `origin` and `apiKey` through the file of `options.dir` (a new one each call). */
export function fileLimiter(
  origin: string,
  apiKey: string,
  pacing: PacingOptions,
  options: SharedPacingOptions,
): SharedLimiter {
  return new SharedLimiter(pacing, new FileStore(options.dir, origin, apiKey), options);
}

/** One shared limiter per (origin, key, directory, store) for the whole process, like limiterFor. */
const shared = new Map<string, SharedLimiter>();

/**
 * The process's limiter for this origin and key, sharing its budget through the file of `options.dir`,
 * or through the Redis of `options.url` (with the file as the machine's budget while Redis cannot be used).
 */
export function sharedLimiterFor(
  origin: string,
  apiKey: string,
  pacing: PacingOptions,
  options: SharedPacingOptions,
): SharedLimiter {
  const id = `${origin}\n${apiKey}\n${options.dir}\n${options.url ?? ''}`;
  let limiter = shared.get(id);
  if (limiter === undefined) {
    const withReserve = { reservePerWaiter: RESERVE_PER_WAITER, ...options };
    const file = fileLimiter(origin, apiKey, pacing, withReserve);
    limiter =
      options.url === undefined
        ? file
        : new SharedLimiter(pacing, new RedisStore(options.url, origin, apiKey), withReserve, file);
    shared.set(id, limiter);
  }
  // The latest run of the process hears of a fallback (tests run many in one process).
  limiter.onFallback = options.onFallback;
  limiter.onRejoin = options.onRejoin;
  return limiter;
}
