// Where a shared budget's state lives: a file on this machine (file-store.ts), or a Redis that every machine
// of a fleet reaches (redis-store.ts). The limiter (shared.ts) keeps the rules; a store only reads, changes
// and writes the state atomically.
import type { SharedState } from './state.js';

/** The state of one origin and key's budget, kept where several processes can share it. */
export interface BudgetStore {
  /** Where it is, for messages: a path, or `redis://host:port/db` (never a password). */
  readonly where: string;
  /** A store that fails may answer again later (a server): the limiter tries it again now and then. */
  readonly recovers: boolean;
  /**
   * The store's clock, in epoch ms: every time in the state is on it. Machines of a fleet need not agree on
   * the time, and a window kept on each one's clock would not be one window.
   */
  now(): number;
  /**
   * Runs `fn` on the current state (and the store's time) and writes what it left, atomically; rejects on
   * any failure.
   */
  transact<T>(fn: (s: SharedState, now: number) => T): Promise<T>;
  /** The state as it is now (no lock), for a view of the window; rejects on any failure. */
  peek(): Promise<SharedState>;
  /** Repairs what the next transaction would (see FileStore.repair), writing nothing else. */
  repair?(): Promise<void>;
  /** Told when the store repaired itself (a file that could not be used, set aside and replaced). */
  onRepair?: ((message: string) => void) | undefined;
  /** As peek, but undefined when nothing is stored for the key (no process has used it here). */
  stored(): Promise<SharedState | undefined>;
}
