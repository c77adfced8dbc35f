// A light lock for a critical section of a few small file operations (the shared request budget, taken
// about twice per request by every agents process on one key): an atomic mkdir of `<file>.lock`, removed
// afterwards. The section runs synchronously between the two, so the lock is held for a fraction of a
// millisecond and never across an await; proper-lockfile (util/lock.ts, kept for the config and state
// files) costs about six system calls and a refresh timer for the same. A lock older than `staleMs`
// belongs to a process that died inside the section and is taken over.
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { sleep } from './sleep.js';

/** Thrown when the lock cannot be had: held past `maxWaitMs`, or the directory refuses it. */
export class DirLockError extends Error {
  constructor(
    readonly lockPath: string,
    readonly code: string | undefined,
    cause?: unknown,
  ) {
    super(`cannot lock ${lockPath}${code ? ` (${code})` : ''}`, { cause });
    this.name = 'DirLockError';
  }
}

export interface DirLockOptions {
  /** A lock older than this was left by a process that died holding it. Default 3000. */
  staleMs?: number;
  /** Give up after waiting this long. Default 10 000. */
  maxWaitMs?: number;
}

const code = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

/** Tries once: true when the lock is now ours. */
function tryTake(lockPath: string, staleMs: number): boolean {
  try {
    mkdirSync(lockPath);
    return true;
  } catch (err) {
    if (code(err) !== 'EEXIST') throw new DirLockError(lockPath, code(err), err);
  }
  let mtimeMs: number;
  try {
    mtimeMs = statSync(lockPath).mtimeMs;
  } catch {
    return false; // released meanwhile: the next try may have it
  }
  if (Date.now() - mtimeMs > staleMs) {
    // Left by a process that died inside the section (which lasts well under a millisecond).
    try {
      rmdirSync(lockPath);
    } catch {
      // Another waiter took it over first.
    }
  }
  return false;
}

/** Runs the synchronous `fn` holding `lockPath` (a directory that must not exist; its parent must). */
export async function withDirLock<T>(lockPath: string, fn: () => T, o: DirLockOptions = {}): Promise<T> {
  const staleMs = o.staleMs ?? 3000;
  const maxWaitMs = o.maxWaitMs ?? 10_000;
  const started = Date.now();
  for (let attempt = 0; !tryTake(lockPath, staleMs); attempt += 1) {
    if (Date.now() - started > maxWaitMs) throw new DirLockError(lockPath, 'held too long');
    // Short, growing, jittered: holders keep it well under a millisecond, and waiters must not retry in step.
    await sleep(Math.random() * Math.min(2 ** attempt, 25));
  }
  try {
    return fn();
  } finally {
    try {
      rmdirSync(lockPath);
    } catch {
      // Taken over as stale while we held it (the process stalled for seconds): nothing left to remove.
    }
  }
}
