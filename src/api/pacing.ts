// Keeps a process under the service's rate limit (100 requests a minute per key) without help from the
// server, which sends no rate-limit headers. A true sliding window, not a token bucket: in any span of
// `windowMs`, at most `limit` requests reach the server, whatever the callers do. Waiters are served first
// come, first served, and leave the queue at once when their signal aborts.
//
// We cannot see when a request reaches the server, only that it happens between the moment we start it and
// the moment its answer (or failure) comes back. So a request holds its slot while in flight and for
// `windowMs` after it ends. Then no window at the server can hold more than `limit`: of any `limit + 1`
// requests, the one started last found one of the others ended at least `windowMs` earlier, so that one
// arrived at least `windowMs` before it. Network delays cannot bunch requests up past the limit.

/** The service's documented limit. */
export const DEFAULT_PACING = { limit: 100, windowMs: 60_000 } as const;

/** A rate: at most `limit` requests in any `windowMs`. */
export interface PacingOptions {
  limit: number;
  windowMs: number;
}

/** Ends a request's time in flight; its slot is then held for one more window. Safe to call twice. */
export type Release = () => void;

interface Waiter {
  resolve: (release: Release) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** A sliding-window limiter over request end times, counting requests in flight. */
export class SlidingWindowLimiter {
  readonly limit: number;
  readonly windowMs: number;
  /** End times of requests still inside the window, oldest first. */
  private readonly ended: number[] = [];
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(options: PacingOptions & { now?: () => number }) {
    if (!(options.limit >= 1) || !(options.windowMs > 0)) {
      throw new RangeError('pacing needs limit >= 1 and windowMs > 0');
    }
    this.limit = Math.floor(options.limit);
    this.windowMs = options.windowMs;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Resolves when a request may be sent, with the function to call when it has ended; rejects with the
   * signal's reason the moment the signal aborts.
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.waiters.length === 0 && this.tryTake()) return Promise.resolve(this.releaser());
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          if (this.waiters.length === 0) this.clearTimer();
          reject(signal?.reason as Error);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      this.schedule();
    });
  }

  /** Requests that could leave right now without waiting. */
  available(): number {
    this.prune(this.now());
    return this.waiters.length > 0 ? 0 : Math.max(0, this.limit - this.inFlight - this.ended.length);
  }

  private releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight -= 1;
      // Now is later than every recorded end, so pushing keeps the list sorted.
      this.ended.push(this.now());
      this.schedule();
    };
  }

  private prune(now: number): void {
    while (this.ended.length > 0 && this.ended[0]! <= now - this.windowMs) this.ended.shift();
  }

  private tryTake(): boolean {
    this.prune(this.now());
    if (this.inFlight + this.ended.length >= this.limit) return false;
    this.inFlight += 1;
    return true;
  }

  private drain(): void {
    this.timer = undefined;
    while (this.waiters.length > 0 && this.tryTake()) {
      const waiter = this.waiters.shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.releaser());
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.waiters.length === 0) return;
    const oldest = this.ended[0];
    // Everything is in flight: the next release schedules the wake-up.
    if (oldest === undefined) return;
    const wait = Math.max(0, oldest + this.windowMs - this.now());
    // +1: timers may fire a fraction of a millisecond early relative to performance.now().
    this.timer = setTimeout(() => this.drain(), Math.ceil(wait) + 1);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** One limiter per (origin, key) for the whole process, shared by every ApiClient. */
const limiters = new Map<string, SlidingWindowLimiter>();

/**
 * The process-wide limiter for this origin and key. The first caller's rate sets it for the life of the
 * process: two limiters for one key would together let through more than either allows.
 */
export function limiterFor(origin: string, apiKey: string, pacing: PacingOptions): SlidingWindowLimiter {
  const id = `${origin}\n${apiKey}`;
  let limiter = limiters.get(id);
  if (limiter === undefined) {
    limiter = new SlidingWindowLimiter(pacing);
    limiters.set(id, limiter);
  }
  return limiter;
}
