import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextBulkPage, pickPage, SeenWindow } from '../../src/core/poll/window.js';
import { DEFAULT_SCHEDULE, nextDelay } from '../../src/core/poll/schedule.js';

describe('pickPage', () => {
  it('starts at page 1 when nothing is known', () => {
    expect(pickPage(-1)).toEqual({ page: 1, limit: 100, offset: 0 });
  });
  it('always includes the anchor, leaves room for new messages, and stays within 1..100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), (anchor) => {
        const p = pickPage(anchor);
        expect(p.limit).toBeGreaterThanOrEqual(11);
        expect(p.limit).toBeLessThanOrEqual(100);
        expect(p.offset).toBe((p.page - 1) * p.limit);
        expect(p.offset).toBeLessThanOrEqual(anchor);
        expect(anchor).toBeLessThan(p.offset + p.limit);
        expect(p.offset + p.limit - anchor - 1).toBeGreaterThanOrEqual(10);
      }),
    );
  });
  it('re-reads few known messages once many are known', () => {
    expect(anchorWaste(9999)).toBe(0);
    expect(anchorWaste(150)).toBe(0);
  });
  function anchorWaste(anchor: number) {
    const p = pickPage(anchor);
    return anchor - p.offset;
  }
});

describe('SeenWindow', () => {
  const at = (s: number) => new Date(s * 1000).toISOString();
  it('keeps the cursor a margin behind the newest ts and forgets what falls out', () => {
    const w = new SeenWindow({ baseMarginS: 5 });
    w.add({ id: 'a', ts: 100, created_at: at(100) });
    w.add({ id: 'b', ts: 110, created_at: at(110) });
    w.advance();
    expect(w.floor).toBe(105);
    expect(w.has('a')).toBe(false);
    expect(w.has('b')).toBe(true);
  });
  it('widens the margin when timestamps arrive out of order', () => {
    const w = new SeenWindow({ baseMarginS: 2 });
    w.add({ id: 'a', ts: 100, created_at: at(100) });
    w.add({ id: 'b', ts: 90, created_at: at(101) });
    expect(w.marginS).toBe(22);
  });
  it('never lets a provider clock far ahead push the cursor past storage time', () => {
    const w = new SeenWindow({ baseMarginS: 5 });
    w.add({ id: 'a', ts: 100 + 3600, created_at: at(100) });
    w.advance();
    expect(w.floor).toBe(95);
  });
  it('never moves the cursor backwards', () => {
    const w = new SeenWindow({ baseMarginS: 5 }, 200);
    w.add({ id: 'a', ts: 150, created_at: at(150) });
    w.advance();
    expect(w.floor).toBe(200);
  });
});

describe('nextDelay', () => {
  const mid = () => 0.5;
  it('polls fast at first, slower during a long quiet turn, capped', () => {
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, mid)).toBe(300);
    expect(nextDelay(10_000, 0, DEFAULT_SCHEDULE, mid)).toBe(1500);
    expect(nextDelay(40_000, 0, DEFAULT_SCHEDULE, mid)).toBe(2000);
    expect(nextDelay(600_000, 0, DEFAULT_SCHEDULE, mid)).toBe(5000);
  });
  it('stretches the gap again after a minute of quiet, for long waits', () => {
    expect(nextDelay(60_000, 0, DEFAULT_SCHEDULE, mid)).toBe(2000);
    expect(nextDelay(70_000, 0, DEFAULT_SCHEDULE, mid)).toBe(3200);
    let t = 0;
    let polls = 0;
    while (t < 20 * 60_000) {
      t += nextDelay(t, 0, DEFAULT_SCHEDULE, mid);
      polls += 1;
    }
    // A twenty-minute CI wait: about 12 a minute once settled.
    expect(polls).toBeLessThanOrEqual(280);
  });
  it('backs off further after transient errors, capped', () => {
    expect(nextDelay(0, 1, DEFAULT_SCHEDULE, mid)).toBe(2000);
    expect(nextDelay(0, 20, DEFAULT_SCHEDULE, mid)).toBe(30_000);
  });
  it('keeps jitter within ±15%', () => {
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, () => 0)).toBe(255);
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, () => 0.999999)).toBe(345);
  });
  it('spends about 30 requests on a 40 s quiet turn and is never more than 2.3 s late', () => {
    for (const random of [() => 0, mid, () => 0.999999]) {
      let t = 0;
      let polls = 0;
      while (t < 40_000) {
        t += nextDelay(t, 0, DEFAULT_SCHEDULE, random);
        polls += 1;
      }
      expect(polls).toBeLessThanOrEqual(36);
    }
    expect(nextDelay(40_000, 0, DEFAULT_SCHEDULE, () => 0.999999)).toBeLessThanOrEqual(2300);
  });
});

describe('nextBulkPage', () => {
  it('goes on with full pages of 100 once the known messages end on a boundary', () => {
    expect(nextBulkPage(100, 50)).toEqual({ page: 2, limit: 100, offset: 100 });
    expect(nextBulkPage(9_900, 50)).toEqual({ page: 100, limit: 100, offset: 9_900 });
  });
  it('never skips a message and always brings at least half a page of new ones', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), (known) => {
        const p = nextBulkPage(known, 50);
        expect(p.limit).toBeGreaterThanOrEqual(50);
        expect(p.limit).toBeLessThanOrEqual(100);
        expect(p.offset).toBe((p.page - 1) * p.limit);
        expect(p.offset).toBeLessThanOrEqual(known);
        expect(p.offset + p.limit - known).toBeGreaterThanOrEqual(50);
      }),
    );
  });
});
