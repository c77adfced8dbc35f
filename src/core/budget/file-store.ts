// The machine's budget: a JSON file (0600) per origin and key, changed under the brief lock. One that cannot
// be used is replaced at once: a process pacing alone would run the key past its limit.
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { brokenCopyPath, withBriefLock } from '../../util/lock.js';
import {
  BrokenState,
  emptyState,
  parseState,
  stateFileName,
  type BudgetKeyRef,
  type SharedState,
} from './state.js';
import type { BudgetStore } from './budget-store.js';

const MAX_FILE_BYTES = 1 << 20;

export class FileStore implements BudgetStore {
  readonly where: string;
  readonly recovers = false;
  private readonly lockPath: string;
  private readonly tmpPath: string;
  private dirReady = false;
  onRepair: ((message: string) => void) | undefined;

  constructor(
    private readonly dir: string,
    origin: string,
    apiKey: BudgetKeyRef,
  ) {
    this.where = join(dir, stateFileName(origin, apiKey));
    this.lockPath = `${this.where}.lock`;
    this.tmpPath = `${this.where}.${randomBytes(6).toString('hex')}.tmp`;
  }

  now(): number {
    return Date.now();
  }

  async transact<T>(fn: (s: SharedState, now: number) => T): Promise<T> {
    if (!this.dirReady) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.dirReady = true;
    }
    // Synchronous inside the lock: a fraction of a millisecond, never held across an await.
    return withBriefLock(
      this.lockPath,
      () => {
        const s = this.readOrRepair();
        const out = fn(s, Date.now());
        writeFileSync(this.tmpPath, JSON.stringify(s), { mode: 0o600 });
        renameSync(this.tmpPath, this.where);
        return out;
      },
      {
        onSetAside: (copy) =>
          this.onRepair?.(
            `a file stood where the lock of the request budget (${this.lockPath}) goes: moved it to ${copy}`,
          ),
      },
    );
  }

  /** A file that cannot be used is set aside: if the window was spent, 429s lower the limit (Cap). */
  private readOrRepair(): SharedState {
    try {
      return this.read() ?? emptyState();
    } catch (err) {
      if (!(err instanceof BrokenState) || err.newer) throw err;
      const copy = brokenCopyPath(this.where);
      renameSync(this.where, copy);
      this.onRepair?.(
        `the request budget file ${this.where} could not be used (${err.message}): replaced it, the broken one kept at ${copy}`,
      );
      return emptyState();
    }
  }

  /** What a transaction repairs, repaired now (`agents budget`); a sound budget is not written, nor made. */
  async repair(): Promise<void> {
    let broken = lstatSync(this.lockPath, { throwIfNoEntry: false })?.isDirectory() === false;
    try {
      this.read();
    } catch (err) {
      if (err instanceof BrokenState && !err.newer) broken = true;
    }
    if (broken) await this.transact(() => undefined);
  }

  // No lock: the file is always replaced whole.
  peek(): Promise<SharedState> {
    return this.stored().then((s) => s ?? emptyState());
  }

  stored(): Promise<SharedState | undefined> {
    return Promise.resolve().then(() => this.read());
  }

  private read(): SharedState | undefined {
    let text: string;
    try {
      text = readFileSync(this.where, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    if (text.length > MAX_FILE_BYTES) throw new BrokenState('it is far larger than a budget file');
    return parseState(text);
  }
}
