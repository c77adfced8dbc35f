// The one file lock: a `<file>.lock` directory beside a file that several agents processes read, modify and
// write back (an atomic mkdir, taken over when stale, so a killed process holds nothing for long), in two
// weights: withLock for sections that await, withBriefLock for a few synchronous file operations.
import { lstatSync, mkdirSync, renameSync, rmdirSync } from 'node:fs';
import { sleep } from './sleep.js';

/** Thrown when the lock stays taken: another process holds it, or the directory cannot take one. */
export class LockError extends Error {
  constructor(
    readonly lockPath: string,
    readonly code: string | undefined,
    cause?: unknown,
  ) {
    super(`cannot lock ${lockPath}${code ? ` (${code})` : ''}`, { cause });
    this.name = 'LockError';
  }
}

/** How many tries with waits of 5 ms growing by 1.3 up to 150 ms add up to about `waitMs`. */
function triesFor(waitMs: number): number {
  let total = 0;
  let wait = 5;
  let tries = 0;
  while (total < waitMs) {
    total += wait;
    wait = Math.min(150, wait * 1.3);
    tries += 1;
  }
  return tries;
}

/**
 * Runs `fn` holding the lock of `path` (the file itself need not exist; its directory must), waiting up
 * to `waitMs` (default 30 s: parallel CI steps on one busy runner queue for it) for another process to let go of it.
 * proper-lockfile, refreshed while held, for sections that await (the config and state files, written now
 * and then); loaded only when something is written.
 */
export async function withLock<T>(path: string, fn: () => T | Promise<T>, waitMs = 30_000): Promise<T> {
  // Its default export, module.exports: a bundle's import() of a CommonJS module has no named exports.
  const { default: lockfile } = await import('proper-lockfile');
  const lockPath = `${path}.lock`;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      lockfilePath: lockPath,
      // Held for a read and a rename; a lock this old belongs to a process that died.
      stale: 10_000,
      update: 2_000,
      // With jitter, so that many writers do not retry in step.
      retries: { retries: triesFor(waitMs), factor: 1.3, minTimeout: 5, maxTimeout: 150, randomize: true },
      // Only a section slower than `stale` could lose the lock; the write that follows is atomic anyway.
      onCompromised: () => undefined,
    });
  } catch (err) {
    throw new LockError(lockPath, (err as NodeJS.ErrnoException).code, err);
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}

export interface BriefLockOptions {
  /** A lock older than this was left by a process that died holding it. Default 3000. */
  staleMs?: number;
  /** Give up after waiting this long. Default 10 000. */
  maxWaitMs?: number;
  /** Told where a file found in the lock's place was moved to (see setAsideNotALock). */
  onSetAside?: (copy: string) => void;
}

const code = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

/** Where an unusable file at `path` is kept once set aside: beside it, named for when (`<path>.broken-<time>`). */
export function brokenCopyPath(path: string, now = Date.now()): string {
  return `${path}.broken-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Something other than a directory where the lock should be (a file a person or a tool left there): no
 * process ever holds such a lock, yet mkdir fails on it for ever. It is moved aside, kept, under a second
 * brief lock (`<lock>.repair`) and after a second look inside it: the name may be a live lock by then (a
 * waiter that moved the file first, then took the lock), and a directory is never moved or removed here.
 * Returns where the file went, or undefined (another waiter is on it, or it was gone).
 */
function setAsideNotALock(lockPath: string, staleMs: number): string | undefined {
  const repair = `${lockPath}.repair`;
  if (!tryTake(repair, staleMs)) return undefined;
  try {
    if (lstatSync(lockPath, { throwIfNoEntry: false })?.isDirectory() !== false) return undefined;
    const copy = brokenCopyPath(lockPath);
    renameSync(lockPath, copy);
    return copy;
  } finally {
    try {
      rmdirSync(repair);
    } catch {
      // Taken over as stale: nothing left to remove.
    }
  }
}

/** Tries once: true when the lock is now ours. */
function tryTake(lockPath: string, staleMs: number, o: BriefLockOptions = {}): boolean {
  try {
    mkdirSync(lockPath);
    return true;
  } catch (err) {
    if (code(err) !== 'EEXIST') throw new LockError(lockPath, code(err), err);
  }
  let stat;
  try {
    stat = lstatSync(lockPath);
  } catch {
    return false; // released meanwhile: the next try may have it
  }
  if (!stat.isDirectory()) {
    const copy = setAsideNotALock(lockPath, staleMs);
    if (copy !== undefined) o.onSetAside?.(copy);
    return false;
  }
  const { mtimeMs } = stat;
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

/**
 * Runs the synchronous `fn` holding `lockPath` (a directory that must not exist; its parent must): a bare
 * mkdir and rmdir around a few small file operations (the shared request budget, taken about twice per
 * request by every process on a key), held for a fraction of a millisecond and never across an await, where
 * proper-lockfile's six system calls and refresh timer would cost more than the section.
 */
export async function withBriefLock<T>(lockPath: string, fn: () => T, o: BriefLockOptions = {}): Promise<T> {
  const staleMs = o.staleMs ?? 3000;
  const maxWaitMs = o.maxWaitMs ?? 10_000;
  const started = Date.now();
  for (let attempt = 0; !tryTake(lockPath, staleMs, o); attempt += 1) {
    if (Date.now() - started > maxWaitMs) throw new LockError(lockPath, 'held too long');
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
