// Keeps a process under the service's rate limit (100 requests a minute per key) without help from the
// server, which sends no rate-limit headers: a true sliding window, not a token bucket.
import { monotonicMs } from '../../util/clock.js';

/** The service's documented limit. */
export const DEFAULT_PACING = { limit: 100, windowMs: 60_000 } as const;

export interface PacingOptions {
  limit: number;
  windowMs: number;
}

/** Ends a request (`sent: false`: it never left; `refused`: a 429; `answered`: any answer). Safe twice. */
export type Release = (sent?: boolean, refused?: boolean, answered?: boolean) => void;

/** Lowered by 429s: [slots, since when]. Halved, then a slot back every CAP_RECOVERY_MS (as TCP's window),
 * machines that each took the whole key come to share it. */
export type Cap = [number, number];
/** 30 slots a minute: from a quarter of 100 to all of it in 2.5 min. */
export const CAP_RECOVERY_MS = 2000;

/** Pure: the slots a budget of `limit` lets through at `now` under `cap`. */
export function capacity(limit: number, cap: Cap | undefined, now: number): number {
  if (cap === undefined) return limit;
  return Math.min(limit, cap[0] + Math.floor(Math.max(0, now - cap[1]) / CAP_RECOVERY_MS));
}

/** Pure: the cap after a 429 for a request granted at `granted`, unless lowered since that grant. */
export function lowerCap(limit: number, cap: Cap | undefined, now: number, granted: number): Cap | undefined {
  if (cap !== undefined && cap[1] >= granted) return cap;
  return [Math.max(1, Math.floor(capacity(limit, cap, now) / 2)), now];
}

export interface PollShare {
  /** The least gap between its polls: N waiters on the key → N × windowMs / limit, with a margin. */
  gapMs(): number;
  close(): void;
}

export interface AcquireOptions {
  /** A reply in hand waits on it (a CI job's result): it goes before the polls while the budget is spent. */
  urgent?: boolean;
}

export interface Limiter {
  readonly limit: number;
  readonly windowMs: number;
  acquire(signal?: AbortSignal, o?: AcquireOptions): Promise<Release>;
  register(): PollShare;
  /** How long ago the service last answered a request of the key here (undefined: not that it knows). */
  sinceAnswerMs?(): number | undefined;
}

/** Headroom on each share: polls at exactly limit/window would leave nothing for the requests around them. */
export const SHARE_MARGIN = 1.1;

export function shareGap(waiters: number, pacing: PacingOptions, margin = SHARE_MARGIN): number {
  if (waiters <= 0) return 0;
  return Math.round(((waiters * pacing.windowMs) / pacing.limit) * margin);
}

/** The window as a limiter last saw it: slots held (in flight, or ended inside it) and the ends in it. */
export interface WindowView {
  held: number;
  ended: readonly number[];
}

/** Pure: each waiter's gap: its share, more when the window is spent (over every horizon up to a window,
 * the waiters must not poll faster than the slots free by then, or their polls would queue). */
export function budgetGap(
  waiters: number,
  pacing: PacingOptions,
  view: WindowView,
  now: number,
  margin = SHARE_MARGIN,
): number {
  if (waiters <= 0) return 0;
  const { windowMs } = pacing;
  const all = view.ended.map((end) => end + windowMs - now);
  // The view may be older than now: what has freed since counts as free.
  const free = Math.max(0, pacing.limit - view.held) + all.filter((h) => h <= 0).length;
  const frees = all.filter((h) => h > 0 && h < windowMs).sort((a, b) => a - b);
  let gap = shareGap(waiters, pacing, margin);
  // Just before the k-th slot frees, `free + k` slots can have been taken since now.
  for (const [k, h] of frees.entries()) gap = Math.max(gap, (waiters * h * margin) / Math.max(1, free + k));
  return Math.round(Math.min(windowMs, gap));
}

export class WaiterCount {
  count = 0;

  register(gap: (count: number) => number, onChange?: () => void): PollShare {
    this.count += 1;
    onChange?.();
    let open = true;
    return {
      gapMs: () => gap(this.count),
      close: () => {
        if (!open) return;
        open = false;
        this.count -= 1;
        onChange?.();
      },
    };
  }
}

/** A request waiting for a slot, until handed one or its signal aborts. */
export interface Waiting<T> {
  resolve: (slot: T) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export function handOut<T>(w: Waiting<T>, slot: T): void {
  w.signal?.removeEventListener('abort', w.onAbort);
  w.resolve(slot);
}

type Waiter = Waiting<Release> & { urgent: boolean };

/** A request holds its slot in flight and `windowMs` after (we cannot see when it reaches the server), so no
 * delay bunches `limit + 1` of them at the server. */
export class SlidingWindowLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Oldest first. */
  private readonly ended: number[] = [];
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly now = monotonicMs;
  private readonly waiting = new WaiterCount();
  private cap: Cap | undefined;
  private lastAnswer: number | undefined;

  constructor(options: PacingOptions) {
    if (!(options.limit >= 1) || !(options.windowMs > 0))
      throw new RangeError('pacing needs limit >= 1 and windowMs > 0');
    this.limit = Math.floor(options.limit);
    this.windowMs = options.windowMs;
  }

  acquire(signal?: AbortSignal, o: AcquireOptions = {}): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const urgent = o.urgent === true;
    // An urgent request waits behind the urgent ones only.
    const ahead = urgent ? this.waiters.filter((w) => w.urgent).length : this.waiters.length;
    if (ahead === 0 && this.tryTake()) return Promise.resolve(this.releaser());
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        signal,
        urgent,
        onAbort: () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          if (this.waiters.length === 0) this.clearTimer();
          reject(signal?.reason as Error);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.splice(ahead, 0, waiter);
      this.schedule();
    });
  }

  sinceAnswerMs(): number | undefined {
    return this.lastAnswer === undefined ? undefined : this.now() - this.lastAnswer;
  }

  register(): PollShare {
    return this.waiting.register((n) => this.gapFor(n));
  }

  gapFor(waiters: number): number {
    const now = this.now();
    const pacing = { limit: this.capacity(now), windowMs: this.windowMs };
    return budgetGap(waiters, pacing, { held: this.held(now), ended: this.ended }, now);
  }

  available(): number {
    const now = this.now();
    return this.waiters.length > 0 ? 0 : Math.max(0, this.capacity(now) - this.held(now));
  }

  capacity(now = this.now()): number {
    const slots = capacity(this.limit, this.cap, now);
    if (slots >= this.limit) this.cap = undefined;
    return slots;
  }

  private releaser(): Release {
    let done = false;
    const granted = this.now();
    return (sent = true, refused = false, answered = false) => {
      if (done) return;
      done = true;
      this.inFlight -= 1;
      const now = this.now();
      if (answered) this.lastAnswer = now;
      if (refused) this.cap = lowerCap(this.limit, this.cap, now, granted);
      // Now is later than every recorded end, so pushing keeps the list sorted.
      if (sent) this.ended.push(now);
      else this.drainSoon();
      this.schedule();
    };
  }

  private held(now: number): number {
    while (this.ended.length > 0 && this.ended[0]! <= now - this.windowMs) this.ended.shift();
    return this.inFlight + this.ended.length;
  }

  private tryTake(): boolean {
    const now = this.now();
    if (this.held(now) >= this.capacity(now)) return false;
    this.inFlight += 1;
    return true;
  }

  private drain(): void {
    this.timer = undefined;
    while (this.waiters.length > 0 && this.tryTake()) handOut(this.waiters.shift()!, this.releaser());
    this.schedule();
  }

  /** A slot given back unused may let a waiter go (no end was recorded to wake it). */
  private drainSoon(): void {
    if (this.waiters.length === 0) return;
    this.clearTimer();
    this.timer = setTimeout(() => this.drain(), 0);
  }

  private schedule(): void {
    if (this.timer !== undefined || this.waiters.length === 0) return;
    const oldest = this.ended[0];
    // Everything is in flight: the next release schedules the wake-up.
    if (oldest === undefined) return;
    const now = this.now();
    // A lowered limit grows back: a slot may come free that way before the oldest end leaves the window.
    const grows = this.cap === undefined ? Number.POSITIVE_INFINITY : CAP_RECOVERY_MS;
    const wait = Math.max(0, Math.min(oldest + this.windowMs - now, grows));
    // +1: timers may fire a fraction of a millisecond early relative to the monotonic clock.
    this.timer = setTimeout(() => this.drain(), Math.ceil(wait) + 1);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

const limiters = new Map<string, SlidingWindowLimiter>();

/** The process's one limiter for this origin and key: two would together let through more than either. */
export function limiterFor(origin: string, apiKey: string, pacing: PacingOptions): SlidingWindowLimiter {
  const id = `${origin}\n${apiKey}`;
  let limiter = limiters.get(id);
  if (limiter === undefined) limiters.set(id, (limiter = new SlidingWindowLimiter(pacing)));
  return limiter;
}
