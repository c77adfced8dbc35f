// A lock file beside a file that several agents processes read, modify and write back (the config, the
// `last` state): `open(…, 'wx')` succeeds for one process at a time. A lock left by a killed process is
// stale after 30 s and taken over. Synchronous: the critical sections are a read and a rename.
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';

const LOCK_WAIT_MS = 10_000;
const LOCK_STALE_MS = 30_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `fn` holding `${path}.lock`; after 10 s of waiting, returns what `onTimeout` returns (or throws). */
export function withFileLock<T>(path: string, fn: () => T, onTimeout: (lock: string) => T): T {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) unlinkSync(lock);
      } catch {
        // Gone meanwhile: try again.
      }
      if (Date.now() > deadline) return onTimeout(lock);
      sleepSync(5 + Math.random() * 20);
    }
  }
  try {
    return fn();
  } finally {
    closeSync(fd);
    try {
      unlinkSync(lock);
    } catch {
      // Already removed as stale by another process: nothing to release.
    }
  }
}
