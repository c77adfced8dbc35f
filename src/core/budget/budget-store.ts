// Where a shared budget's state lives: a file on this machine (file-store.ts) or a Redis of the fleet
// (redis-store.ts). The limiter (shared.ts) keeps the rules; a store reads, changes and writes atomically.
import type { SharedState } from './state.js';

export interface BudgetStore {
  /** For messages: a path, or `redis://host:port/db` (never a password). */
  readonly where: string;
  /** A store that fails may answer again later (a server): the limiter tries it again now and then. */
  readonly recovers: boolean;
  /** The store's clock (epoch ms): a fleet's machines may disagree on the time, and one window needs one. */
  now(): number;
  /** Runs `fn` on the state and writes what it left, atomically; rejects on any failure. */
  transact<T>(fn: (s: SharedState, now: number) => T): Promise<T>;
  /** The state now, without the lock; rejects on any failure. */
  peek(): Promise<SharedState>;
  /** Repairs what the next transaction would (see FileStore.repair), writing nothing else. */
  repair?(): Promise<void>;
  /** Told when the store repaired itself (a file that could not be used, set aside and replaced). */
  onRepair?: ((message: string) => void) | undefined;
  /** As peek, but undefined when nothing is stored for the key. */
  stored(): Promise<SharedState | undefined>;
}
