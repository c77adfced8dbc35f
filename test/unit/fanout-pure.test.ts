// The pure parts of the shared budget and of `agents wait`: shares and gaps, the state file's rules, the
// poll schedule with a share, wait references, and the status lines at narrow widths.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  budgetGap,
  CAP_RECOVERY_MS,
  capacity,
  lowerCap,
  shareGap,
  SHARE_MARGIN,
} from '../../src/core/budget/limiter.js';
import {
  BrokenState,
  grantable,
  nextFree,
  parseState,
  prune,
  slotsHeld,
  stateFileName,
  type SharedState,
} from '../../src/core/budget/state.js';
import { DEFAULT_SCHEDULE, nextDelay } from '../../src/core/poll/schedule.js';
import { pause } from '../../src/core/poll/follow.js';
import { threadOptionArg, withThreadSession } from '../../src/cli/input/wait-ref.js';
import { parseWaitRef } from '../../src/core/sessions/refs.js';
import { renderReplyHeader, renderStatusLine, type StatusRow } from '../../src/cli/output/status-lines.js';
import { statusBlock } from '../../src/cli/output/status-lines.js';
import { cut as cutToWidth, width as displayWidth } from '../../src/util/width.js';
import { PLAIN } from '../../src/cli/output/style.js';
import { UsageError } from '../../src/core/errors/cli-error.js';

const PACE = { limit: 100, windowMs: 60_000 };
const S = '0b5e3c1a-1111-4222-8333-444455556666';
const T = '9f8e7d6c-aaaa-4bbb-8ccc-ddddeeeeffff';

describe('shares of the budget', () => {
  it('N waiters on 100 a minute: N × 0.6 s, with the margin', () => {
    expect(shareGap(0, PACE)).toBe(0);
    expect(shareGap(1, PACE)).toBe(Math.round(600 * SHARE_MARGIN));
    expect(shareGap(32, PACE)).toBe(Math.round(32 * 600 * SHARE_MARGIN));
  });

  it('budgetGap is the share when the window is spread evenly at the waiters own pace', () => {
    // 91 requests ended evenly over the last minute: what N waiters at their share leave behind.
    const now = 1_000_000;
    const ended = Array.from({ length: 91 }, (_, i) => now - 60_000 + ((i + 0.5) * 60_000) / 91);
    const gap = budgetGap(8, PACE, { held: 91, ended }, now);
    expect(gap).toBeGreaterThanOrEqual(shareGap(8, PACE));
    expect(gap).toBeLessThanOrEqual(shareGap(8, PACE) * 1.02);
  });

  it('budgetGap stretches when the window is already spent, and lets go as its slots free', () => {
    // A burst of 90 creates and first polls in the last 10 s: 10 slots left until they free.
    const now = 1_000_000;
    const ended = Array.from({ length: 90 }, (_, i) => now - 10_000 + i * 100);
    const crowded = budgetGap(32, PACE, { held: 90, ended }, now);
    expect(crowded).toBeGreaterThan(2 * shareGap(32, PACE));
    expect(crowded).toBeLessThanOrEqual(PACE.windowMs);
    // The same view 55 s later: most of the burst has left the window.
    const later = budgetGap(32, PACE, { held: 90, ended }, now + 55_000);
    expect(later).toBeLessThan(crowded);
  });

  it('budgetGap never lets N waiters plan more polls than the window can take, at any horizon', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.integer({ min: 0, max: 59_999 }), { maxLength: 100 }),
        (waiters, ages) => {
          const now = 10_000_000;
          const ended = ages.map((a) => now - a);
          const gap = budgetGap(waiters, PACE, { held: ended.length, ended }, now);
          for (const h of [1000, 10_000, 30_000, 59_000]) {
            const free = PACE.limit - ended.length + ended.filter((e) => e + 60_000 <= now + h).length;
            // Polls planned within h, all waiters together, never beyond what is free by then (margin kept).
            if (gap < PACE.windowMs)
              expect((waiters * h) / gap).toBeLessThanOrEqual(Math.max(1, free) + 1e-6);
          }
        },
      ),
    );
  });
});

describe('a limit lowered by 429s', () => {
  it('halves on a 429, once for the requests granted before it, and takes back a slot every 2 s', () => {
    const t = 1_000_000;
    expect(capacity(100, undefined, t)).toBe(100);
    const once = lowerCap(100, undefined, t, t - 10);
    expect(once).toEqual([50, t]);
    // Another request granted before the halving was paced as before it: its 429 changes nothing.
    expect(lowerCap(100, once, t + 5, t - 1)).toBe(once);
    // One granted after it: half again, of what the cap had grown back to.
    expect(lowerCap(100, once, t + 4 * CAP_RECOVERY_MS, t + 1)).toEqual([27, t + 4 * CAP_RECOVERY_MS]);
    expect(capacity(100, once, t + CAP_RECOVERY_MS - 1)).toBe(50);
    expect(capacity(100, once, t + CAP_RECOVERY_MS)).toBe(51);
    expect(capacity(100, once, t + 60 * CAP_RECOVERY_MS)).toBe(100);
    // Never below one slot.
    expect(lowerCap(100, [1, t], t + 1, t + 1)).toEqual([1, t + 1]);
  });
});

describe('the shared state file', () => {
  const now = 5_000_000;
  const state = (s: Partial<SharedState>): SharedState => ({
    v: 1,
    ended: [],
    flight: {},
    waiters: {},
    queue: {},
    ...s,
  });

  it('an empty file is a fresh budget; anything else unreadable is broken', () => {
    expect(parseState('')).toEqual(state({}));
    expect(parseState('  \n')).toEqual(state({}));
    for (const bad of ['{', 'null', '[]', '{"v":2,"ended":[],"flight":{},"waiters":{}}', '{"v":1}']) {
      expect(() => parseState(bad)).toThrow();
    }
    expect(() => parseState('{"v":1,"ended":["x"],"flight":{},"waiters":{}}')).toThrow(/malformed/);
    expect(() => parseState('{"v":1,"ended":[],"flight":{"a":null},"waiters":{}}')).toThrow(/malformed/);
    expect(() => parseState('{"v":1,"ended":[],"flight":{},"waiters":{"p":[1]}}')).toThrow(/malformed/);
    expect(() => parseState('{"v":1,"ended":[],"flight":{},"waiters":{},"cap":[0,5]}')).toThrow(/malformed/);
    expect(parseState('{"v":1,"ended":[],"flight":{},"waiters":{},"cap":[3,5]}').cap).toEqual([3, 5]);
  });

  it('an entry in flight past its lease counts as ended when the lease ran out, one window more', () => {
    const s = state({ ended: [now - 70_000, now - 1000], flight: { live: now + 4000, dead: now - 2000 } });
    prune(s, now, 60_000);
    expect(s.ended).toEqual([now - 2000, now - 1000]);
    expect(Object.keys(s.flight)).toEqual(['live']);
    expect(slotsHeld(s)).toBe(3);
    // The dead one frees a window after its lease: not before, not never.
    const later = state({ flight: { dead: now - 2000 } });
    prune(later, now + 58_000 - 1, 60_000);
    expect(slotsHeld(later)).toBe(1);
    prune(later, now + 58_000, 60_000);
    expect(slotsHeld(later)).toBe(0);
  });

  it('waiter entries lapse at their deadline', () => {
    const s = state({ waiters: { a: [3, now + 1], b: [2, now - 1] } });
    prune(s, now, 60_000);
    expect(s.waiters).toEqual({ a: [3, now + 1] });
  });

  it('the queue: free slots go to the lowest ranks, ours in order, written yet or not; tickets lapse', () => {
    const queue = {
      'b.q1': [now - 5000, now + 1] as [number, number],
      'c.q1': [now - 1000, now + 1] as [number, number],
    };
    const s = state({ ended: [now - 1000], queue });
    const mine = [
      { id: 'a.q1', rank: now - 60_000 },
      { id: 'a.q2', rank: now - 2000 },
      { id: 'a.q3', rank: now },
    ];
    // 3 free: a.q1 (urgent), then b.q1, then a.q2; a.q3 is behind c.q1 as well.
    expect(grantable(s, 4, mine)).toBe(2);
    // 2 free: a.q1 and b.q1.
    expect(grantable(s, 3, mine)).toBe(1);
    expect(grantable(s, 1, mine)).toBe(0);
    // Ties go by id; our own tickets already in the queue are not counted twice.
    const tie = state({ queue: { 'a.q1': [now, now + 1], 'z.q1': [now, now + 1] } });
    expect(grantable(tie, 1, [{ id: 'a.q1', rank: now }])).toBe(1);
    expect(grantable(tie, 1, [{ id: 'z.q1', rank: now }])).toBe(0);
    prune(s, now + 2, 60_000);
    expect(s.queue).toEqual({});
    expect(grantable(s, 4, mine)).toBe(3);
  });

  it('a file of a version before the queue reads as an empty queue; a malformed queue is broken', () => {
    const old = { v: 1, ended: [], flight: {}, waiters: {} };
    expect(parseState(JSON.stringify(old)).queue).toEqual({});
    expect(() => parseState(JSON.stringify({ ...old, queue: { x: [1] } }))).toThrow(BrokenState);
    expect(() => parseState(JSON.stringify({ ...old, queue: [] }))).toThrow(BrokenState);
  });

  it('the next slot frees a window after the oldest end, or after the lease of an entry in flight', () => {
    expect(nextFree(state({ ended: [now - 50_000, now - 10_000] }), now, 60_000)).toBe(now + 10_000);
    expect(nextFree(state({ flight: { a: now + 3000 } }), now, 60_000)).toBe(now + 60_000);
    expect(nextFree(state({ flight: { a: now - 3 } }), now, 60_000)).toBe(now + 60_000);
  });

  it('names one file per origin and key, with the key only as a hash', () => {
    const key = 'sk-live-Secret-Key-0123456789';
    const name = stateFileName('https://api.blocks.team', key);
    // The SHA-256 every version computes (sha256sum's), so that versions side by side share one budget.
    expect(name).toBe('api.blocks.team-ecb0a6098f705ad68f1fd677.json');
    expect(name).not.toContain('Secret');
    expect(stateFileName('https://api.blocks.team', `${key}x`)).not.toBe(name);
    expect(stateFileName('http://127.0.0.1:4010', key)).toMatch(/^127\.0\.0\.1_4010-/);
    expect(stateFileName('https://other.example', key)).not.toBe(name);
  });
});

describe('the poll schedule with a share of the budget', () => {
  const fixed = () => 0.5; // no jitter
  it('no share: the schedule as it was', () => {
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, fixed)).toBe(300);
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, fixed, { gapMs: 0, elapsedMs: 10_000 })).toBe(300);
  });
  it('at least the share once warmed up; 2.5 times faster in the first seconds (a lone waiter keeps the fast schedule)', () => {
    const share = { gapMs: 19_200, elapsedMs: 60_000 };
    expect(nextDelay(5000, 0, DEFAULT_SCHEDULE, fixed, share)).toBe(19_200);
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, fixed, { ...share, elapsedMs: 0 })).toBe(7680);
    // Alone on the key (a share of 0.66 s), the first polls come as fast as without a share.
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, fixed, { gapMs: 660, elapsedMs: 0 })).toBe(300);
    // A share shorter than the schedule's own gap changes nothing.
    expect(nextDelay(20_000, 0, DEFAULT_SCHEDULE, fixed, { gapMs: 100, elapsedMs: 60_000 })).toBe(2000);
  });
  it('jitter stays around the share, so waiters do not poll in step', () => {
    const share = { gapMs: 10_000, elapsedMs: 60_000 };
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, () => 0, share)).toBe(8500);
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, () => 1, share)).toBe(11_500);
  });
});

describe('the pause between polls', () => {
  it('a gap that shrinks while it sleeps ends it at the next look, not at the old end', async () => {
    let gap = 600_000;
    const from = Date.now();
    const paused = pause(from, () => gap, undefined, 10);
    // Ten minutes, until the budget frees up: then the pause is over at the next look.
    setTimeout(() => (gap = 0), 30);
    await paused;
    expect(gap).toBe(0);
  });

  it('without re-checks the gap is read once; a signal ends it at once', async () => {
    const controller = new AbortController();
    let reads = 0;
    const paused = pause(Date.now(), () => (reads += 1) && 600_000, controller.signal);
    controller.abort('SIGINT');
    await expect(paused).rejects.toBe('SIGINT');
    expect(reads).toBe(1);
  });
});

describe('wait references', () => {
  it('accepts what <session> accepts, <session>/<thread>, last/<thread>, and thread addresses', () => {
    expect(parseWaitRef(S)).toEqual({ session: { kind: 'id', id: S }, threadId: undefined, text: S });
    expect(parseWaitRef(` ${S.toUpperCase()}/${T} `)).toMatchObject({
      session: { kind: 'id', id: S },
      threadId: T,
    });
    expect(parseWaitRef(`last/${T}`)).toMatchObject({ session: { kind: 'last' }, threadId: T });
    expect(parseWaitRef('last')).toMatchObject({ session: { kind: 'last' }, threadId: undefined });
    expect(parseWaitRef(`https://blocks.team/app/acme/sessions/${S}`)).toMatchObject({
      session: { kind: 'id', id: S },
      threadId: undefined,
    });
    expect(
      parseWaitRef(`https://api.example/rest/v1/sessions/${S}/threads/${T}/messages?type=final_message`),
    ).toMatchObject({ session: { kind: 'id', id: S }, threadId: T });
  });

  it('refuses anything else', () => {
    for (const bad of [
      '',
      'nope',
      `${S}/`,
      `${S}/x`,
      `x/${T}`,
      `${S}/${T}/${T}`,
      `last/last`,
      'ftp://x/sessions/' + S,
    ]) {
      expect(parseWaitRef(bad)).toBeUndefined();
    }
  });

  it('--thread takes a thread id or <session>/<thread>; the session part must be the <session> given', () => {
    expect(threadOptionArg(T.toUpperCase())).toEqual({ threadId: T });
    expect(threadOptionArg(`${S}/${T}`)).toEqual({ sessionId: S, threadId: T });
    expect(() => threadOptionArg('nope')).toThrow(/thread id/);
    expect(withThreadSession({ kind: 'id', id: S }, { sessionId: S, threadId: T })).toEqual({
      kind: 'id',
      id: S,
    });
    expect(() => withThreadSession({ kind: 'id', id: T }, { sessionId: S, threadId: T })).toThrow(UsageError);
    expect(withThreadSession({ kind: 'last' }, { sessionId: S, threadId: T })).toEqual({
      kind: 'last',
      mustBe: S,
    });
    expect(withThreadSession({ kind: 'last' }, { threadId: T })).toEqual({ kind: 'last' });
  });
});

describe('status lines and reply headers', () => {
  const row = (over: Partial<StatusRow> = {}): StatusRow => ({
    sessionId: S,
    title: 'Fix the failing parser test in the tokenizer module',
    agent: 'claude',
    state: 'waiting',
    since: 0,
    ...over,
  });

  it('never wider than the terminal minus one column, whatever the title', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.integer({ min: 20, max: 200 }),
        (title, cols) => {
          const line = renderStatusLine(row({ title }), 65_000, cols, PLAIN);
          expect(displayWidth(line)).toBeLessThanOrEqual(cols - 1);
          // eslint-disable-next-line no-control-regex -- control characters are what must not be there
          expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
        },
      ),
    );
  });

  it('at 40 columns: title cut, agent, state and elapsed kept', () => {
    const line = renderStatusLine(row(), 65_000, 40, PLAIN);
    expect(line).toBe('· Fix the fail… · claude · waiting 1m5s');
    expect(displayWidth(line)).toBeLessThanOrEqual(39);
    // Wide characters count twice.
    const wide = renderStatusLine(
      row({ title: '修复解析器测试中的失败问题并添加测试', agent: undefined }),
      3000,
      40,
      PLAIN,
    );
    expect(displayWidth(wide)).toBeLessThanOrEqual(39);
    expect(renderStatusLine(row({ state: 'done', until: 45_000 }), 99_000, 40, PLAIN)).toMatch(
      /^✓ .* done 45s$/,
    );
    expect(renderStatusLine(row({ title: undefined }), 0, 40, PLAIN)).toMatch(/^· 0b5e3c1a · claude/);
  });

  it('a title from the service cannot drive the terminal', () => {
    const line = renderStatusLine(row({ title: 'evil\u001b]0;owned\u0007\u001b[2J' }), 0, 80, PLAIN);
    expect(line).not.toContain('\u001b');
    expect(renderReplyHeader(S, 'evil\u001b[2J', PLAIN, 80)).not.toContain('\u001b');
    expect(renderReplyHeader(S, undefined, PLAIN, 80)).toBe(`── ${S} ──`);
    expect(displayWidth(renderReplyHeader(S, 'x'.repeat(200), PLAIN, 60))).toBeLessThanOrEqual(79);
  });

  it('at most a screenful: the waiting first, the rest summed up', () => {
    const rows = Array.from({ length: 12 }, (_, i) =>
      row({ title: `t${i}`, state: i % 3 === 0 ? 'done' : 'waiting' }),
    );
    const lines = statusBlock(rows, 0, 40, 5, PLAIN);
    expect(lines).toHaveLength(5);
    expect(lines.slice(0, 4).every((l) => l.includes('waiting'))).toBe(true);
    expect(lines[4]).toBe('  … 8 more: 4 waiting, 4 done');
    expect(statusBlock(rows.slice(0, 3), 0, 40, 5, PLAIN)).toHaveLength(3);
  });

  it('width: wide characters, marks and cuts', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(cutToWidth('日本語のテキスト', 7)).toBe('日本語…');
    expect(displayWidth(cutToWidth('日本語のテキスト', 7))).toBeLessThanOrEqual(7);
    expect(cutToWidth('short', 10)).toBe('short');
  });
});
