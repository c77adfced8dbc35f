// A lock beside a file that several agents processes read, modify and write back (the config, the state).
// proper-lockfile: an atomic mkdir of `<file>.lock`, refreshed while held, taken over when stale (a killed
// process holds nothing for long). Loaded only when something is written.

/** Thrown when the lock stays taken: another process holds it, or the directory cannot take one. */
export class LockError extends Error {
  constructor(
    readonly lockPath: string,
    readonly code: string | undefined,
    cause: unknown,
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
 * to `waitMs` (default 10 s) for another process to let go of it.
 */
export async function withLock<T>(path: string, fn: () => T | Promise<T>, waitMs = 10_000): Promise<T> {
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
