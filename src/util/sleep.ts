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

// afterIo counts the other side's silence, not this process's stall: a process the machine did not run for
// a while (dozens of processes on two cores, a loaded CI runner) finds, when it runs again, its timers due
// before the answers that came meanwhile are read, and an answer already in hand would be taken for none.
// So the callback runs one turn later, after the poll for I/O (setImmediate runs after it).

/** Calls `fn` once `ms` have passed and the I/O that came meanwhile was read; returns its cancel. */
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
