// Timers: an abortable sleep, shared by the client's retry waits and the poller's gaps; and time-outs.
/** Resolves after `ms`, or rejects with the signal's reason as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Calls `fn` once `ms` have passed and the I/O that came meanwhile was read; returns its cancel. A process
 * not run for a while (a loaded CI runner) finds its timers due before the answers that came are read. */
export function afterIo(ms: number, fn: () => void): () => void {
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    immediate = setImmediate(fn);
  }, ms);
  return () => {
    clearTimeout(timer);
    if (immediate !== undefined) clearImmediate(immediate);
  };
}

/** True for the reason a deadline aborts with (an Error named TimeoutError), not a stop (Ctrl-C, a pipe). */
export function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'TimeoutError';
}
