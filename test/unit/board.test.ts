// The board's pure parts: its layout at 80 and 200 columns and below, the service's text made safe, the
// rows' order (newest first, a group's attempts together) and filter, and which session it asks about next.
import { describe, expect, it } from 'vitest';
import {
  compactAge,
  placeColumns,
  prLabel,
  renderFrame,
  scrollTop,
  type BoardView,
} from '../../src/cli/commands/board/layout.js';
import {
  filterRows,
  groupMarks,
  orderRows,
  rowOf,
  type BoardRow,
} from '../../src/cli/commands/board/rows.js';
import { nextToPoll, pauseAfter, type PollRow } from '../../src/cli/commands/board/poll-plan.js';
import { PLAIN } from '../../src/cli/output/style.js';
import { width } from '../../src/util/width.js';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const at = (agoMs: number) => new Date(NOW - agoMs).toISOString();

const row = (n: number, more: Partial<BoardRow> = {}): BoardRow => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  title: `session number ${n} with a title long enough to be cut at eighty columns`,
  agent: 'claude',
  state: 'working',
  usedAt: at(n * 60_000),
  lastAt: at(n * 20_000),
  latest: `claude is working on it (step ${n}), reading the module and running the tests once more`,
  pr: `https://github.com/acme/app/pull/${100 + n}`,
  ...more,
});

const view = (list: BoardRow[], columns: number, rows = 24): BoardView => ({
  columns,
  rows,
  list,
  marks: groupMarks(list),
  selected: 0,
  top: 0,
  header: 'agents board · default',
  message: '',
  keys: '↑↓ move  ⏎ chat  q quit',
  now: NOW,
  style: PLAIN,
});

/** The frame's lines as the terminal shows them (its own escapes taken out). */
// eslint-disable-next-line no-control-regex -- the frame's own escapes are what is taken out
const lines = (frame: string) => frame.replace(/\u001b\[(H|K|J)/g, '').split('\r\n');

describe('the board at a width', () => {
  const list = Array.from({ length: 30 }, (_, i) => row(i + 1));

  it('fits every line of an 80x24 screen, with every column, and shows the rows the height has room for', () => {
    const shown = lines(renderFrame(view(list, 80)));
    expect(shown).toHaveLength(24);
    for (const l of shown) expect(width(l)).toBeLessThanOrEqual(80);
    expect(shown[1]).toMatch(/STATE +TITLE +AGENT +LAST +PR +LATEST/);
    expect(shown[2]).toMatch(/^› ● working +session number 1 .*… claude +20s +#101 +claude is working/);
    expect(shown.filter((l) => l.includes('session number'))).toHaveLength(20);
  });

  it('uses the room at 200 columns: the whole title, more of the latest line', () => {
    const shown = lines(renderFrame(view(list, 200)));
    for (const l of shown) expect(width(l)).toBeLessThanOrEqual(200);
    expect(shown[2]).toContain('session number 1 with a title long enough to be cut at eighty columns');
    expect(shown[2]).toContain('reading the module and running the tests once more');
  });

  it('drops columns as the width shrinks, the title last', () => {
    const names = (c: number) => placeColumns(c).map((p) => p.column.name);
    expect(names(80)).toEqual(['state', 'title', 'agent', 'since', 'pr', 'latest']);
    expect(names(60)).toEqual(['state', 'title', 'agent', 'since', 'pr']);
    expect(names(40)).toEqual(['state', 'title', 'since']);
    expect(names(20)).toEqual(['title']);
    for (const c of [20, 33, 40, 47, 60, 79, 80, 120, 200]) {
      for (const l of lines(renderFrame(view(list, c)))) expect(width(l)).toBeLessThanOrEqual(c);
    }
  });

  it('measures wide characters by the columns they take', () => {
    const wide = [row(1, { title: '漢字のタイトル🙂'.repeat(8), latest: '中文'.repeat(50) })];
    for (const l of lines(renderFrame(view(wide, 80)))) expect(width(l)).toBeLessThanOrEqual(80);
  });

  it("never lets the service's text drive the terminal: escapes, control characters and bidi controls", () => {
    const evil = row(1, {
      title: 'fine\u001b[2J\u001b]0;pwned\u0007 title',
      agent: 'cl\u001b[31maude',
      latest: 'line\r\nover\u001b]52;c;ZXZpbA==\u0007 \u202eevil',
    });
    const frame = renderFrame(view([evil], 200));
    // The frame's own sequences are cursor home, erase to the end of the line, erase below: nothing else.
    // eslint-disable-next-line no-control-regex -- the frame's own escapes are what is taken out
    const rest = frame.replace(/\u001b\[(H|K|J)/g, '').replace(/\r\n/g, '');
    // eslint-disable-next-line no-control-regex -- any control character left is what must not be there
    expect(rest).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    // Shown, made harmless: the escape character is gone, what followed it is plain text.
    expect(rest).toContain('fine [2J ]0;pwned title');
    expect(rest).toContain('line over ]52;c;ZXZpbA== \\u{202e}evil');
  });

  it('says how long ago in four columns, and a pull request by its number', () => {
    expect([5e3, 42e3, 5 * 60e3, 3 * 3600e3, 2 * 86400e3, 21 * 86400e3].map(compactAge)).toEqual([
      'now',
      '42s',
      '5m',
      '3h',
      '2d',
      '3w',
    ]);
    expect(prLabel('https://github.com/acme/app/pull/1234')).toBe('#1234');
    expect(prLabel('https://example.com/review/9')).toBe('PR');
    expect(prLabel(undefined)).toBe('');
  });

  it('scrolls as little as it must to keep the selection on screen', () => {
    expect(scrollTop(0, 5, 20)).toBe(0);
    expect(scrollTop(0, 25, 20)).toBe(6);
    expect(scrollTop(10, 3, 20)).toBe(3);
  });
});

describe("the board's rows", () => {
  it('are newest first, the attempts of one group together, attempt 1 first, where the newest of them stands', () => {
    const g = 'aaaaaaaa-0000-4000-8000-000000000000';
    const list = [
      row(5, { id: 'e', usedAt: at(5), group: g, createdAt: at(50) }),
      row(1, { id: 'a', usedAt: at(1) }),
      row(3, { id: 'c', usedAt: at(3), group: g, createdAt: at(60) }),
      row(2, { id: 'b', usedAt: at(2) }),
      row(9, { id: 'x', usedAt: at(9), group: g, createdAt: at(40) }),
    ];
    const ordered = orderRows(list);
    expect(ordered.map((r) => r.id)).toEqual(['a', 'b', 'c', 'e', 'x']);
    expect(groupMarks(ordered)).toEqual([undefined, undefined, 'first', 'middle', 'last']);
  });

  it("read a group from the known session's entry, as create --attempts records it", () => {
    const known = { id: 'a', usedAt: at(1), state: 'working' as const, group: 'G-1' };
    expect(rowOf(known).group).toBe('g-1');
    expect(rowOf({ id: 'a', usedAt: at(1), state: 'gone' }).state).toBe('failed');
    expect(rowOf({ id: 'a', usedAt: at(1) }).state).toBe('unknown');
  });

  it('a turn started elsewhere (a new thread in the state file) makes a finished row working', () => {
    const old = row(1, { id: 'a', state: 'finished', threadId: 't1' });
    expect(rowOf({ id: 'a', usedAt: at(0), threadId: 't2', state: 'working' }, old).state).toBe('working');
    expect(rowOf({ id: 'a', usedAt: at(0), threadId: 't1' }, old).state).toBe('finished');
  });

  it('are filtered by any of their text, in any case', () => {
    const list = [row(1, { title: 'Fix the flaky test' }), row(2, { agent: 'codex', title: 'other' })];
    expect(filterRows(list, 'FLAKY').map((r) => r.title)).toEqual(['Fix the flaky test']);
    expect(filterRows(list, 'codex').map((r) => r.title)).toEqual(['other']);
    expect(filterRows(list, '  ')).toHaveLength(2);
  });
});

describe('which session the board asks about next', () => {
  const p = (id: string, more: Partial<PollRow>): PollRow => ({ id, state: 'working', owed: false, ...more });

  it('looks first at sessions never looked at that may be working, then polls the busiest working one due', () => {
    const rows = [
      p('finished-unlooked', { state: 'finished', owed: true }),
      p('quiet', { activeAt: NOW - 60_000, dueAt: NOW - 1 }),
      p('busy', { activeAt: NOW - 1000, dueAt: NOW - 1 }),
      p('unknown-unlooked', { state: 'unknown', owed: true }),
    ];
    expect(nextToPoll(rows, NOW)?.id).toBe('unknown-unlooked');
    expect(nextToPoll(rows.slice(0, 3), NOW)?.id).toBe('busy');
    // Nothing working is due: the finished one owed a look, once.
    expect(nextToPoll([rows[0]!, p('later', { dueAt: NOW + 5000 })], NOW)?.id).toBe('finished-unlooked');
  });

  it('never polls a finished or failed session again unless a look is owed (R)', () => {
    const rows = [p('f', { state: 'finished' }), p('x', { state: 'failed' })];
    expect(nextToPoll(rows, NOW)).toBeUndefined();
    expect(nextToPoll([p('f', { state: 'finished', owed: true })], NOW)?.id).toBe('f');
  });

  it("spends at most two thirds of one waiter's share of the key, per request, and slows as waiters join", () => {
    // 100 a minute, one waiter: a share of 660 ms; the board waits 990 ms a request (about 60 a minute).
    expect(pauseAfter(1, 660, 300)).toBe(990);
    expect(pauseAfter(3, 660, 300)).toBe(2970);
    // A wait beside it on the same key: each share twice as long.
    expect(pauseAfter(1, 1320, 300)).toBe(1980);
    // No budget to share (pacing off): the schedule's least gap.
    expect(pauseAfter(2, undefined, 300)).toBe(600);
  });
});
