// While a shared budget's store cannot be used, the machine's budget (under Redis) or the process's own paces.
import type { BudgetStore } from './budget-store.js';
import type { Limiter } from './limiter.js';
import { BrokenState } from './state.js';

/** What a transaction returns once the budget fell back: nothing was done. */
export const FELL_BACK = Symbol('fell back');

const errText = (err: unknown) =>
  err instanceof BrokenState
    ? `${err.message}; ${err.newer ? 'use that version, or delete it,' : 'delete it'} to share the budget again`
    : ((err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err)));

export class Fallback {
  active = false;
  private retryAt = 0;
  /** Once a run of failures. */
  private told = false;
  onFallback: ((message: string) => void) | undefined;
  onRejoin: ((message: string) => void) | undefined;

  constructor(
    private readonly store: Pick<BudgetStore, 'where' | 'recovers'>,
    readonly limiter: Limiter,
    /** Whether `limiter` is the machine's budget (the file under a Redis). */
    private readonly machine: boolean,
    private readonly rejoinMs: number,
  ) {}

  /** Whether `limiter` paces now; a store that recovers is tried again `rejoinMs` after it failed. */
  paces(): boolean {
    if (!this.active) return false;
    if (!this.store.recovers || Date.now() < this.retryAt) return true;
    this.active = false;
    return false;
  }

  /** True when the budget falls back now (false: it already had). */
  begin(err: unknown): boolean {
    if (this.active) return false;
    this.active = true;
    this.retryAt = Date.now() + this.rejoinMs;
    if (this.told) return true;
    this.told = true;
    const alone = this.machine ? "paces itself with this machine's budget" : 'paces itself alone';
    const again = this.store.recovers ? ` until it answers again` : '';
    this.onFallback?.(
      `the request budget shared with other agents processes (${this.store.where}) cannot be used ` +
        `(${errText(err)}); this process ${alone}${again}`,
    );
    return true;
  }

  answered(): void {
    if (!this.told) return;
    this.told = false;
    this.onRejoin?.(`the request budget at ${this.store.where} answers again; this process shares it again`);
  }
}
