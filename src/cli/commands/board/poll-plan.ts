// Which session the board asks about next, and when, pure. Of its share of the key's budget the board spends
// at most BOARD_SHARE: a send, a create or a checkout typed on the board still finds a slot, and the waits
// beside it keep theirs. A finished or failed session is not asked about again unless the person asks (R).
import type { RowState } from './rows.js';

/** `owed`: a whole look is due (never done, or R); `dueAt`: when it may be polled (ms; none: now). */
export type PollRow = { id: string; state: RowState; owed: boolean; dueAt?: number; activeAt?: number };

const BOARD_SHARE = 2 / 3;

export function nextToPoll(rows: readonly PollRow[], now: number): PollRow | undefined {
  const busiest = (a: PollRow, b: PollRow) => (b.activeAt ?? 0) - (a.activeAt ?? 0);
  const owed = rows.filter((r) => r.owed);
  const firstOwed = owed.find((r) => r.state === 'working' || r.state === 'unknown');
  if (firstOwed) return firstOwed;
  const due = rows.filter((r) => !r.owed && r.state === 'working' && (r.dueAt ?? 0) <= now).sort(busiest);
  return due[0] ?? owed[0];
}

/** Pure: the pause after `requests` requests: one waiter's share of the key (it shrinks as waiters join, in
 * any process) divided by BOARD_SHARE, at least the schedule's fastest (`minMs`), per request. */
export function pauseAfter(requests: number, shareGapMs: number | undefined, minMs: number): number {
  const gap = Math.max(minMs, (shareGapMs ?? 0) / BOARD_SHARE);
  return Math.max(1, requests) * gap;
}
