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

/** Runs `fn` holding the lock of `path` (the file itself need not exist; its directory must). */
export async function withLock<T>(path: string, fn: () => T | Promise<T>): Promise<T> {
  const { lock } = await import('proper-lockfile');
  const lockPath = `${path}.lock`;
  let release: () => Promise<void>;
  try {
    release = await lock(path, {
      realpath: false,
      lockfilePath: lockPath,
      // Held for a read and a rename; a lock this old belongs to a process that died.
      stale: 10_000,
      update: 2_000,
      // About 10 s of waiting, with jitter so that many writers do not retry in step.
      retries: { retries: 100, factor: 1.3, minTimeout: 5, maxTimeout: 150, randomize: true },
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
