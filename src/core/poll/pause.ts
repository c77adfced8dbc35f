// The poller's wait between two polls. A shared budget's gap is looked at again every `recheckMs` while it
// sleeps: a gap decided in a crowded minute must not outlast the crowd.
import { sleep } from '../../util/sleep.js';

/** Resolves at `from + gap()`, gap() read again every `recheckMs` (when given); rejects when `signal` aborts. */
export async function pause(
  from: number,
  gap: () => number,
  signal: AbortSignal | undefined,
  recheckMs?: number,
): Promise<void> {
  for (let left = from + gap() - Date.now(); left > 0; left = from + gap() - Date.now()) {
    await sleep(recheckMs === undefined ? left : Math.min(left, recheckMs), signal);
  }
}
