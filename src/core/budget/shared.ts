// The key's budget shared by every agents process that uses the same origin and key, kept in a store (a
// file of this machine, or a Redis of the fleet): parallel jobs together stay under the limit.
import {
  budgetGap,
  SHARE_MARGIN,
  SlidingWindowLimiter,
  type AcquireOptions,
  type Limiter,
  type PacingOptions,
  type PollShare,
  type Release,
} from './limiter.js';
import { FileStore } from './file-store.js';
import { RedisStore } from './redis-store.js';
import type { BudgetStore } from './budget-store.js';
import { Fallback } from './fallback.js';
import { SlotQueue } from './slot-queue.js';
import { StateSync } from './state-sync.js';

export interface SharedPacingOptions {
  /** Directory of the state files (the CLI passes `<state dir>/pacing`); made with mode 0700. */
  dir: string;
  /** A Redis of the fleet (`redis://…`, `rediss://…`): the file of `dir` is the machine's budget meanwhile. */
  url?: string;
  /** Told once, when this process gives up on the store and paces itself without it. */
  onFallback?: (message: string) => void;
  /** How long an entry in flight is vouched for before its process must renew it. Default 5000. */
  leaseMs?: number;
  /** Told when this process set aside and replaced a budget file that could not be used (or its lock's). */
  onRepair?: (message: string) => void;
  /** Told when the Redis of `url` answers again after a fallback. */
  onRejoin?: (message: string) => void;
  /** How long after it failed a store that recovers (Redis) is tried again. Default REJOIN_MS. */
  rejoinMs?: number;
  /** Slots kept aside per waiter on the key, beyond SHARE_MARGIN (0; sharedLimiterFor: RESERVE_PER_WAITER). */
  reservePerWaiter?: number;
  /** What this process is, for `agents budget`: a command and its option names, never a value. */
  label?: string;
}

/**
 * Slots of the window kept aside per waiter on a shared key. Jobs that wait together end together, and each
 * then reads its session for the result: with SHARE_MARGIN's 9 % left over, 32 waiters' reads and last polls
 * queued for seconds behind a spent window. 0.4 makes SHARE_MARGIN about 1.26 for 32 waiters, 1.12 for 4.
 * bench:fanout, 32 waiters: over 4 machines in Redis 1.54x to 1.70x the floor without it, 0.99x and 1.30x
 * with it; on one machine 1.44x and 1.45x without, 1.11x and 1.33x with it.
 */
export const RESERVE_PER_WAITER = 0.4;
const REJOIN_MS = 5000;

/**
 * The budget of one origin and key, shared through a store: its queue (slot-queue.ts), its fallback
 * (fallback.ts) and this process's part of its state (state-sync.ts). Every process also paces itself with
 * its own window, all that is left after a fallback.
 */
export class SharedLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Where the store is (a path, or a Redis address without its password). */
  readonly path: string;
  private readonly local: SlidingWindowLimiter;
  readonly reservePerWaiter: number;
  readonly fallback: Fallback;
  private readonly state: StateSync;
  private readonly queue: SlotQueue;
  /** Lock + read + write, for the figure the benchmark prints. */
  readonly cost: { transactions: number; totalMs: number };

  constructor(
    pacing: PacingOptions,
    private readonly store: BudgetStore,
    o: Omit<SharedPacingOptions, 'dir' | 'url'>,
    /** What paces the process while a store that recovers cannot be used (the machine's file). */
    machine?: Limiter,
  ) {
    this.local = new SlidingWindowLimiter(pacing);
    this.limit = this.local.limit;
    this.windowMs = this.local.windowMs;
    this.reservePerWaiter = o.reservePerWaiter ?? 0;
    this.path = store.where;
    const own = { limit: this.limit, windowMs: this.windowMs };
    this.fallback = new Fallback(
      store,
      machine ?? this.local,
      machine !== undefined,
      o.rejoinMs ?? REJOIN_MS,
    );
    this.state = new StateSync(store, own, o.leaseMs ?? 5000, this.fallback, () => this.queue.pending);
    this.queue = new SlotQueue(store, this.state, own);
    this.cost = this.state.cost;
    this.tell(o);
  }

  /** Who hears of a fallback, a repair or a rejoin, and the label: the latest run's (tests run many). */
  tell(o: Pick<SharedPacingOptions, 'onFallback' | 'onRejoin' | 'onRepair' | 'label'>): this {
    this.fallback.onFallback = o.onFallback;
    this.fallback.onRejoin = o.onRejoin;
    this.store.onRepair = o.onRepair;
    this.state.label = o.label;
    return this;
  }

  get fellBack(): boolean {
    return this.fallback.active;
  }

  async acquire(signal?: AbortSignal, o: AcquireOptions = {}): Promise<Release> {
    // Meanwhile the fallback paces; the answers of the requests it paces are remembered by our own window.
    if (this.fallback.paces()) return this.fallback.limiter.acquire(signal, o);
    const own = await this.local.acquire(signal, o);
    if (this.fallback.active) return own;
    let id: string | undefined;
    try {
      id = await this.queue.take(signal, o.urgent === true);
    } catch (err) {
      own(false);
      throw err;
    }
    // Fell back while waiting: the process's own window has counted this request from the start.
    if (id === undefined) return own;
    const entry = id;
    const granted = this.store.now();
    let done = false;
    return (sent = true, refused = false, answered = false) => {
      if (done) return;
      done = true;
      own(sent, refused, answered);
      const now = this.store.now();
      this.state.giveBack(entry, sent ? now : -1, refused ? granted : undefined, answered ? now : undefined);
    };
  }

  /** The latest answer this process saw, or any process that shares the store as of its last read. */
  sinceAnswerMs(): number | undefined {
    const seen = this.state.view.answered;
    const shared = seen === undefined ? undefined : Math.max(0, this.store.now() - seen);
    const own = this.local.sinceAnswerMs();
    if (own === undefined) return shared;
    return shared === undefined ? own : Math.min(own, shared);
  }

  /**
   * Waiters are written in the store at once, with a count and a liveness deadline, so that each process's
   * waiters stretch their gaps to their share of the whole budget (budgetGap).
   */
  register(): PollShare {
    return this.state.waiting.register(
      (n) => {
        if (this.fallback.active) return this.local.gapFor(n);
        this.state.refreshView();
        const all = n + this.state.othersWaiting;
        const { view } = this.state;
        const pacing = { limit: view.limit, windowMs: this.windowMs };
        return budgetGap(all, pacing, view, this.store.now(), this.shareMargin(all));
      },
      () => this.state.sync(),
    );
  }

  /** The headroom on each of `waiters` shares: SHARE_MARGIN, and the slots kept aside for them. */
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

/**
 * The process's one limiter (like limiterFor) for this origin and key, sharing its budget through the file
 * of `options.dir`, or the Redis of `options.url` (the file being the machine's budget while Redis fails).
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
  return limiter.tell(options);
}
