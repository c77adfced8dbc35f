// The one file lock: a `<file>.lock` directory (an atomic mkdir, taken over when stale) in two weights:
// withLock for sections that await, withBriefLock for a few synchronous file operations.
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

/** Waits up to `waitMs` for the lock (30 s: parallel CI steps on one busy runner queue for it). */
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

/** A brief lock older than this was left by a process that died. */
const STALE_MS = 3000;
const MAX_WAIT_MS = 10_000;

const code = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

/** Where an unusable file at `path` is kept once set aside: beside it, named for when (`<path>.broken-<time>`). */
export function brokenCopyPath(path: string, now = Date.now()): string {
  return `${path}.broken-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
}

/** A file in the lock's place makes mkdir fail for ever: moved aside under a second brief lock, after a second
 * look (a waiter may have moved it and taken the lock meanwhile). Returns where it went, if this moved it. */
function setAsideNotALock(lockPath: string): string | undefined {
  const repair = `${lockPath}.repair`;
  if (!tryTake(repair)) return undefined;
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
function tryTake(lockPath: string, onSetAside?: (copy: string) => void): boolean {
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
    const copy = setAsideNotALock(lockPath);
    if (copy !== undefined) onSetAside?.(copy);
  } else if (Date.now() - stat.mtimeMs > STALE_MS) {
    // Left by a process that died inside the section (which lasts well under a millisecond).
    try {
      rmdirSync(lockPath);
    } catch {
      // Another waiter took it over first.
    }
  }
  return false;
}

/** A bare mkdir and rmdir around a synchronous `fn` (the shared budget's, twice per request of every process
 * on a key): held well under a millisecond, where proper-lockfile's six calls and timer would cost more. */
export async function withBriefLock<T>(
  lockPath: string,
  fn: () => T,
  o: { onSetAside?: (copy: string) => void } = {},
): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; !tryTake(lockPath, o.onSetAside); attempt += 1) {
    if (Date.now() - started > MAX_WAIT_MS) throw new LockError(lockPath, 'held too long');
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
