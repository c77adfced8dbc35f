// Where a shared budget's state lives (file-store.ts, redis-store.ts): read, changed and written atomically.
import type { SharedState } from './state.js';

export interface BudgetStore {
  /** For messages: a path, or `redis://host:port/db` (never a password). */
  readonly where: string;
  /** A store that fails may answer again later (a server): the limiter tries it again now and then. */
  readonly recovers: boolean;
  /** The store's clock (epoch ms): a fleet's machines may disagree on the time, and one window needs one. */
  now(): number;
  /** Writes what `fn` left, atomically. */
  transact<T>(fn: (s: SharedState, now: number) => T): Promise<T>;
  /** Without the lock. */
  peek(): Promise<SharedState>;
  /** What the next transaction would repair (FileStore.repair). */
  repair?(): Promise<void>;
  onRepair?: ((message: string) => void) | undefined;
  /** Undefined when nothing is stored for the key. */
  stored(): Promise<SharedState | undefined>;
}
