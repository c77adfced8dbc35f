// What a poller yielded, by message id: the moment each id first came out and how often ids repeated.
// Shared by every scenario so that "duplicates" and "misses" mean the same thing for both pollers.
import type { Message } from '../../src/core/api/types.js';

/** The yields of one poller run. */
export class Tally {
  private readonly firstSeen = new Map<string, number>();
  /** Messages yielded, repeats included. */
  yields = 0;
  /** Yields of an id that had already been yielded. */
  duplicates = 0;

  record(m: Message, atMs: number): void {
    this.yields += 1;
    if (this.firstSeen.has(m.id)) this.duplicates += 1;
    else this.firstSeen.set(m.id, atMs);
  }

  /** When `id` was first yielded (epoch ms), if it was. */
  firstAt(id: string): number | undefined {
    return this.firstSeen.get(id);
  }

  /** Expected ids never yielded. */
  misses(expected: Iterable<string>): number {
    let n = 0;
    for (const id of expected) if (!this.firstSeen.has(id)) n += 1;
    return n;
  }

  /** Ids yielded that were not expected (another thread's message, a user message…). */
  foreign(expected: Set<string>): number {
    let n = 0;
    for (const id of this.firstSeen.keys()) if (!expected.has(id)) n += 1;
    return n;
  }
}

/** The median; Infinity (a run that never got its message) sorts last and counts as the slowest. */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid] ?? Number.NaN;
  return ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
}

/** The largest value (Infinity when any run missed). */
export function worst(values: number[]): number {
  return values.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
}
