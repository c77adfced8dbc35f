// The budget as `agents budget` shows it, from a state alone: what left the window or the hour is not
// counted, each process is named by what it wrote (and forgotten with its last entry), a full window says
// when its first slot frees, a 429's lowered limit is the one in force. And an older version's file (no
// names, no 429s) still reads.
import { describe, expect, it } from 'vitest';
import { budgetView } from '../../src/core/budget/budget-view.js';
import { emptyState, parseState, prune, REFUSALS_KEPT_MS } from '../../src/core/budget/state.js';

const pacing = { limit: 3, windowMs: 60_000 };
const now = 10_000_000;

describe('the budget view', () => {
  it('counts the window, the queue and the polls by process and command; a full window frees at its oldest end + 60 s', () => {
    const s = {
      ...emptyState(),
      ended: [now - 70_000, now - 50_000, now - 20_000],
      flight: { 'aa.1': now + 5000 },
      queue: { 'aa.q2': [now - 10, now + 5000], 'bb.q1': [now - 20, now + 5000] } as Record<
        string,
        [number, number]
      >,
      waiters: { bb: [2, now + 30_000] } as Record<string, [number, number]>,
      who: { aa: 'create --wait', bb: 'mcp', gone: 'show' },
      refused: [now - REFUSALS_KEPT_MS - 1, now - 1000],
    };
    const v = budgetView(s, now, pacing);
    expect(v).toMatchObject({ used: 3, inFlight: 1, queued: 2, polling: 2, limit: 3, refusedLastHour: 1 });
    expect(v.nextFreeAt).toBe(now - 50_000 + 60_000);
    expect(v.processes).toEqual([
      { command: 'mcp', queued: 1, polling: 2, inFlight: 0 },
      { command: 'create --wait', queued: 1, polling: 0, inFlight: 1 },
    ]);
    // The view changes nothing of what it was given.
    expect(s.ended).toHaveLength(3);
  });

  it('a slot free now: no next slot; a 429 lowers the limit in force', () => {
    const v = budgetView({ ...emptyState(), ended: [now - 1000], cap: [1, now - 100] }, now, pacing);
    expect(v).toMatchObject({ used: 1, limit: 1, configured: 3 });
    expect(v.nextFreeAt).toBe(now - 1000 + 60_000);
    expect(budgetView(emptyState(), now, pacing).nextFreeAt).toBeUndefined();
  });

  it('prune forgets the name of a process with nothing left, and 429s older than an hour', () => {
    const s = { ...emptyState(), who: { aa: 'mcp' }, refused: [now - REFUSALS_KEPT_MS - 1] };
    prune(s, now, pacing.windowMs);
    expect(s.who).toBeUndefined();
    expect(s.refused).toBeUndefined();
  });

  it('reads a file with names and 429s, and one an older version wrote without them; refuses malformed ones', () => {
    const old = JSON.stringify({ v: 1, ended: [], flight: {}, waiters: {}, queue: {} });
    expect(parseState(old).who).toBeUndefined();
    const named = JSON.stringify({ ...JSON.parse(old), who: { aa: 'mcp' }, refused: [now] });
    expect(parseState(named)).toMatchObject({ who: { aa: 'mcp' }, refused: [now] });
    expect(() => parseState(JSON.stringify({ ...JSON.parse(old), who: { aa: 1 } }))).toThrow();
    expect(() => parseState(JSON.stringify({ ...JSON.parse(old), refused: ['x'] }))).toThrow();
  });
});
