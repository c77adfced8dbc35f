// This process's requests waiting for a shared budget's slot (each a ticket in the store's queue), and its loop.
import { sleep } from '../../util/sleep.js';
import { capacity, CAP_RECOVERY_MS, type PacingOptions } from './limiter.js';
import { grantable, nextFree, prune, slotsHeld, type SharedState } from './state.js';
import type { BudgetStore } from './budget-store.js';
import { FELL_BACK, type StateSync, type Ticket } from './state-sync.js';

/** An urgent request ranks as if it had waited this much longer: ahead of polls of less than a window. */
const URGENT_LEAD_MS = 60_000;
/** How often to look again when free slots are due to other processes' requests ahead. */
const QUEUE_RECHECK_MS = 200;

interface SlotWaiter extends Ticket {
  resolve: (id: string | undefined) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** First come, first served across the store's processes: a slot that frees goes to the longest waiting. */
export class SlotQueue {
  /** In rank order. */
  readonly pending: SlotWaiter[] = [];
  private pumping = false;
  private wakePump: (() => void) | undefined;

  constructor(
    private readonly store: BudgetStore,
    private readonly state: StateSync,
    private readonly pacing: PacingOptions,
  ) {}

  /** A slot in the store: its entry id, or undefined after a fallback. */
  take(signal: AbortSignal | undefined, urgent: boolean): Promise<string | undefined> {
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
          const n = grantable(s, capacity(this.pacing.limit, s.cap, now), this.pending);
          const ids: string[] = [];
          for (const w of this.pending.slice(0, n)) {
            delete s.queue[w.id];
            ids.push(this.state.enter(s, now));
          }
          if (ids.length > 0) this.state.startRenewal();
          return { ids, wakeAt: n < this.pending.length ? this.nextTry(s, now) : 0 };
        });
        if (got === FELL_BACK) {
          for (const w of this.pending.splice(0)) this.handOut(w, undefined);
          return;
        }
        for (const id of got.ids) {
          const w = this.pending.shift();
          // Its caller left while the file was read: the slot goes back unused.
          if (w === undefined) this.state.giveBack(id, -1);
          else this.handOut(w, id);
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
          prune(seen, now, this.pacing.windowMs);
          const free = grantable(seen, capacity(this.pacing.limit, seen.cap, now), this.pending);
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
    const { limit, windowMs } = this.pacing;
    if (slotsHeld(s) < capacity(limit, s.cap, now)) return now + QUEUE_RECHECK_MS;
    // A lowered limit grows back a slot at a time, maybe before a request's slot frees.
    const grows = s.cap === undefined ? Number.POSITIVE_INFINITY : now + CAP_RECOVERY_MS;
    return Math.min(nextFree(s, now, windowMs), grows);
  }

  private handOut(w: SlotWaiter, id: string | undefined): void {
    w.signal?.removeEventListener('abort', w.onAbort);
    w.resolve(id);
  }
}
