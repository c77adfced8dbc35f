// A key's budget shared by every agents process on it through a store (a file, or a Redis of the fleet).
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
import { SlotQueue } from './slot-queue.js';
import { StateSync } from './state-sync.js';

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

/** The budget of one origin and key, shared through a store; every process also paces its own window. */
export class SharedLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly path: string;
  private readonly local: SlidingWindowLimiter;
  readonly reservePerWaiter: number;
  /** Paces while the store cannot be used: `machine`, else the process's own window. */
  private readonly alone: Limiter;
  private readonly state: StateSync;
  private readonly queue: SlotQueue;
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
    this.state = new StateSync(store, this.local, sync, machine !== undefined, () => this.queue.pending);
    this.queue = new SlotQueue(store, this.state, this.local);
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
