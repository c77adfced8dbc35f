// Pure: a key's budget as `agents budget` shows it, from the stored state alone (no request is sent).
import { capacity, type PacingOptions } from './limiter.js';
import { nextFree, prune, slotsHeld, type SharedState } from './state.js';

export interface BudgetProcess {
  /** Its command and option names (`create --wait`), when it wrote them (older versions did not). */
  command: string | undefined;
  queued: number;
  polling: number;
  inFlight: number;
}

/** The budget at `at`, on the store's clock. */
export interface BudgetView {
  at: number;
  windowMs: number;
  /** The limit in force: the configured one, lowered for a while after a 429. */
  limit: number;
  configured: number;
  /** Ended inside the window, or in flight. */
  used: number;
  inFlight: number;
  /** Undefined when a slot is free now. */
  nextFreeAt: number | undefined;
  queued: number;
  polling: number;
  /** With something waiting, the most first. */
  processes: BudgetProcess[];
  refusedLastHour: number;
}

const processOf = (entry: string) => entry.split('.')[0] ?? entry;

/** Pure: pruned as a transaction would. */
export function budgetView(state: SharedState, now: number, pacing: PacingOptions): BudgetView {
  const s = structuredClone(state);
  prune(s, now, pacing.windowMs);
  const limit = capacity(pacing.limit, s.cap, now);
  const used = slotsHeld(s);
  const byProcess = new Map<string, BudgetProcess>();
  const count = (id: string, what: 'queued' | 'polling' | 'inFlight', n = 1) => {
    const p = byProcess.get(id) ?? { command: s.who?.[id], queued: 0, polling: 0, inFlight: 0 };
    byProcess.set(id, p);
    p[what] += n;
  };
  for (const id of Object.keys(s.queue)) count(processOf(id), 'queued');
  for (const [id, [n]] of Object.entries(s.waiters)) count(id, 'polling', n);
  for (const id of Object.keys(s.flight)) count(processOf(id), 'inFlight');
  const processes = [...byProcess.values()]
    .filter((p) => p.queued + p.polling > 0)
    .sort((a, b) => b.queued + b.polling - (a.queued + a.polling));
  return {
    at: now,
    windowMs: pacing.windowMs,
    limit,
    configured: pacing.limit,
    used,
    inFlight: Object.keys(s.flight).length,
    nextFreeAt: used < limit ? undefined : nextFree(s, now, pacing.windowMs),
    queued: Object.keys(s.queue).length,
    polling: Object.values(s.waiters).reduce((n, [k]) => n + k, 0),
    processes,
    refusedLastHour: s.refused?.length ?? 0,
  };
}
