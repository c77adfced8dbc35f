// A key's budget shared by every agents process on it through a store (a file, or a Redis of the fleet).
import {
  budgetGap,
  CAP_RECOVERY_MS,
  capacity,
  handOut,
  SHARE_MARGIN,
  SlidingWindowLimiter,
  type AcquireOptions,
  type Limiter,
  type PacingOptions,
  type PollShare,
  type Release,
  type Waiting,
} from './limiter.js';
import { FileStore } from './file-store.js';
import { RedisStore } from './redis-store.js';
import type { BudgetStore } from './budget-store.js';
import { grantable, nextFree, prune, slotsHeld, type SharedState } from './state.js';
import { FELL_BACK, StateSync, type Ticket } from './state-sync.js';
import { sleep } from '../../util/sleep.js';

export interface SharedPacingOptions {
  /** Made 0700. */
  dir: string;
  /** A Redis of the fleet: the file of `dir` is then the machine's budget while Redis fails. */
  url?: string;
  onFallback?: (message: string) => void;
  /** How long an entry in flight is vouched for before its process must renew it. Default 5000. */
  leaseMs?: number;
  /** Told when a budget file (or one in its lock's place) that could not be used was set aside and replaced. */
  onRepair?: (message: string) => void;
  onRejoin?: (message: string) => void;
  /** How long after it failed Redis is tried again. Default REJOIN_MS. */
  rejoinMs?: number;
  /** Slots kept aside per waiter, beyond SHARE_MARGIN (0; sharedLimiterFor: RESERVE_PER_WAITER). */
  reservePerWaiter?: number;
  /** For `agents budget`: a command and its option names, never a value. */
  label?: string;
}

/** Jobs that wait together end together and read their results: with SHARE_MARGIN alone, 32 waiters' reads
 * queued for seconds (bench:fanout, 32 waiters, 4 machines in Redis: 1.54x to 1.70x the floor without it,
 * 0.99x and 1.30x with it; one machine: 1.44x and 1.45x without, 1.11x and 1.33x with it). */
export const RESERVE_PER_WAITER = 0.4;
const REJOIN_MS = 5000;

/** An urgent request ranks as if it had waited this much longer: ahead of polls of less than a window. */
const URGENT_LEAD_MS = 60_000;
/** How often to look again when free slots are due to other processes' requests ahead. */
const QUEUE_RECHECK_MS = 200;

type SlotWaiter = Ticket & Waiting<string | undefined>;

/** The budget of one origin and key, shared through a store; every process also paces its own window. Its
 * requests wait for a slot first come, first served across the store's processes: a slot that frees goes to
 * the longest waiting. */
export class SharedLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly path: string;
  private readonly local: SlidingWindowLimiter;
  readonly reservePerWaiter: number;
  /** Paces while the store cannot be used: `machine`, else the process's own window. */
  private readonly alone: Limiter;
  private readonly state: StateSync;
  /** Waiting for a slot in the store, in rank order. */
  private readonly pending: SlotWaiter[] = [];
  private pumping = false;
  private wakePump: (() => void) | undefined;
  /** Lock + read + write, for the benchmark. */
  readonly cost: { transactions: number; totalMs: number };

  constructor(
    pacing: PacingOptions,
    private readonly store: BudgetStore,
    o: Omit<SharedPacingOptions, 'dir' | 'url'>,
    /** The machine's file, while Redis cannot be used. */
    machine?: Limiter,
  ) {
    this.local = new SlidingWindowLimiter(pacing);
    this.limit = this.local.limit;
    this.windowMs = this.local.windowMs;
    this.reservePerWaiter = o.reservePerWaiter ?? 0;
    this.path = store.where;
    this.alone = machine ?? this.local;
    const sync = { leaseMs: o.leaseMs ?? 5000, rejoinMs: o.rejoinMs ?? REJOIN_MS };
    this.state = new StateSync(store, this.local, sync, machine !== undefined, () => this.pending);
    this.cost = this.state.cost;
    this.tell(o);
  }

  /** The latest run's listeners and label (tests run many). */
  tell(o: Pick<SharedPacingOptions, 'onFallback' | 'onRejoin' | 'onRepair' | 'label'>): this {
    this.state.onFallback = o.onFallback;
    this.state.onRejoin = o.onRejoin;
    this.store.onRepair = o.onRepair;
    this.state.label = o.label;
    return this;
  }

  get fellBack(): boolean {
    return this.state.fellBack;
  }

  async acquire(signal?: AbortSignal, o: AcquireOptions = {}): Promise<Release> {
    if (this.state.pacesAlone()) return this.alone.acquire(signal, o);
    const own = await this.local.acquire(signal, o);
    if (this.state.fellBack) return own;
    const id = await this.take(signal, o.urgent === true).catch((err: unknown) => {
      own(false);
      throw err;
    });
    // Fell back while waiting: the process's own window has counted this request from the start.
    if (id === undefined) return own;
    const granted = this.store.now();
    let done = false;
    return (sent = true, refused = false, answered = false) => {
      if (done) return;
      done = true;
      own(sent, refused, answered);
      const now = this.store.now();
      this.state.giveBack(id, sent ? now : -1, refused ? granted : undefined, answered ? now : undefined);
    };
  }

  /** A slot in the store: its entry id, or undefined after a fallback. */
  private take(signal: AbortSignal | undefined, urgent: boolean): Promise<string | undefined> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const waiter: SlotWaiter = {
        resolve,
        signal,
        id: this.state.nextId('q'),
        rank: this.store.now() - (urgent ? URGENT_LEAD_MS : 0),
        onAbort: () => {
          const at = this.pending.indexOf(waiter);
          if (at >= 0) this.pending.splice(at, 1);
          // The pump's sleep must not keep the process alive, nor its ticket hold up other processes.
          if (this.pending.length === 0) this.wakePump?.();
          this.state.sync();
          reject(signal?.reason as Error);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      // In rank order: an urgent request goes before this process's polls.
      const at = this.pending.findIndex((w) => w.rank > waiter.rank);
      this.pending.splice(at < 0 ? this.pending.length : at, 0, waiter);
      this.state.startRenewal();
      void this.pump();
    });
  }

  /** One transaction per wake-up grants our waiters their slots, not one each. Without the queue, whoever woke
   * first took a freed slot, and a poll of 32 over 4 machines waited 20 s (bench:fanout --timeline). */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.pending.length > 0) {
        const got = await this.state.transact((s, now) => {
          const n = grantable(s, capacity(this.limit, s.cap, now), this.pending);
          const ids = this.pending.slice(0, n).map((w) => {
            delete s.queue[w.id];
            return this.state.enter(s, now);
          });
          if (ids.length > 0) this.state.startRenewal();
          return { ids, wakeAt: n < this.pending.length ? this.nextTry(s, now) : 0 };
        });
        if (got === FELL_BACK) {
          for (const w of this.pending.splice(0)) handOut(w, undefined);
          return;
        }
        for (const id of got.ids) {
          const w = this.pending.shift();
          // Its caller left while the file was read: the slot goes back unused.
          if (w === undefined) this.state.giveBack(id, -1);
          else handOut(w, id);
        }
        await this.sleepUntilFree(got.wakeAt);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Others compute the same moment, so jitter keeps them off the lock together, and a full window is read
   * without the lock (a transaction of each of dozens per freed slot made lock waits pass LOCK_WAIT_MS). */
  private async sleepUntilFree(wakeAt: number): Promise<void> {
    while (this.pending.length > 0) {
      const stop = new AbortController();
      this.wakePump = () => stop.abort();
      await sleep(Math.max(0, wakeAt - this.store.now()) + 1 + Math.random() * 20, stop.signal).catch(
        () => undefined,
      );
      this.wakePump = undefined;
      if (this.pending.length === 0 || !this.store.recovers) return;
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
      if (full === 0) return;
      wakeAt = full;
    }
  }

  /** When the next slot frees, or soon when free ones are due to others ahead (dead ones' tickets lapse). */
  private nextTry(s: SharedState, now: number): number {
    if (slotsHeld(s) < capacity(this.limit, s.cap, now)) return now + QUEUE_RECHECK_MS;
    // A lowered limit grows back a slot at a time, maybe before a request's slot frees.
    const grows = s.cap === undefined ? Number.POSITIVE_INFINITY : now + CAP_RECOVERY_MS;
    return Math.min(nextFree(s, now, this.windowMs), grows);
  }

  /** The latest answer any process sharing the store saw, as of the last read. */
  sinceAnswerMs(): number | undefined {
    const seen = this.state.view.answered;
    const shared = seen === undefined ? undefined : Math.max(0, this.store.now() - seen);
    const own = this.local.sinceAnswerMs();
    if (own === undefined) return shared;
    return shared === undefined ? own : Math.min(own, shared);
  }

  /** Waiters are written in the store at once, so that every process's shares count them. */
  register(): PollShare {
    return this.state.waiting.register(
      (n) => {
        if (this.state.fellBack) return this.local.gapFor(n);
        this.state.refreshView();
        const all = n + this.state.othersWaiting;
        const { view } = this.state;
        const pacing = { limit: view.limit, windowMs: this.windowMs };
        return budgetGap(all, pacing, view, this.store.now(), this.shareMargin(all));
      },
      () => this.state.sync(),
    );
  }

  /** SHARE_MARGIN, and the slots kept aside for `waiters`. */
  shareMargin(waiters: number): number {
    const limit = this.state.view.limit;
    const kept = Math.min(limit / 2, this.reservePerWaiter * waiters);
    return (SHARE_MARGIN * limit) / (limit - kept);
  }
}

/** A new limiter sharing the budget of `origin` and `apiKey` through the file of `options.dir`. */
export function fileLimiter(
  origin: string,
  apiKey: string,
  pacing: PacingOptions,
  options: SharedPacingOptions,
): SharedLimiter {
  return new SharedLimiter(pacing, new FileStore(options.dir, origin, apiKey), options);
}

const shared = new Map<string, SharedLimiter>();

/** The process's one shared limiter for this origin and key (the file of `dir`, or the Redis of `url`). */
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
  return limiter.tell(options);
}
