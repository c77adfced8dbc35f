// The board's screen, pure. Text from the service is made safe here, before it is measured.
import { flatten, neutralize } from '../../../util/text.js';
import { cut, width } from '../../../util/width.js';
import type { Style } from '../../output/style.js';
import type { BoardRow, GroupMark, RowState } from './rows.js';

type ColumnName = 'state' | 'title' | 'agent' | 'since' | 'pr' | 'latest';

/** `grow`: its share of the spare room (0: fixed); `drop`: the order it goes as the width shrinks (0 never). */
type Column = { name: ColumnName; heading: string; min: number; grow: number; max: number; drop: number };

const COLUMNS: readonly Column[] = [
  { name: 'state', heading: 'STATE', min: 10, grow: 0, max: 10, drop: 1 },
  { name: 'title', heading: 'TITLE', min: 14, grow: 1, max: 90, drop: 0 },
  { name: 'agent', heading: 'AGENT', min: 8, grow: 0, max: 8, drop: 3 },
  { name: 'since', heading: 'LAST', min: 4, grow: 0, max: 4, drop: 2 },
  { name: 'pr', heading: 'PR', min: 7, grow: 0, max: 7, drop: 4 },
  { name: 'latest', heading: 'LATEST', min: 16, grow: 1, max: 1000, drop: 5 },
];

/** Columns before the first: the selection's mark. */
const MARK = 2;

type Placed = { column: Column; width: number };

/** Pure: the columns that fit; `titles`: the widest title shown (the rest goes to the latest line). */
export function placeColumns(columns: number, titles?: number): Placed[] {
  let chosen = COLUMNS.map((c) =>
    c.name === 'title' && titles !== undefined ? { ...c, max: Math.max(c.min, Math.min(c.max, titles)) } : c,
  );
  const need = (cs: readonly Column[]) => MARK + cs.reduce((n, c) => n + c.min, 0) + cs.length - 1;
  while (need(chosen) > columns && chosen.length > 1) {
    const worst = chosen.reduce((a, b) => (b.drop > a.drop ? b : a));
    chosen = chosen.filter((c) => c !== worst);
  }
  let spare = Math.max(0, columns - need(chosen));
  const placed = chosen.map((column) => ({ column, width: column.min }));
  // The spare room by shares, each column up to its most; what is left then goes to the first with room.
  const growing = placed.filter((p) => p.column.grow > 0);
  const shares = growing.reduce((n, p) => n + p.column.grow, 0);
  const give = (p: Placed, most: number) => {
    const add = Math.min(p.column.max - p.width, most, spare);
    p.width += add;
    spare -= add;
  };
  const whole = spare;
  for (const p of growing) give(p, Math.floor((whole * p.column.grow) / shares));
  for (const p of growing) give(p, spare);
  // The title never fills the whole line alone: what is left past every column's most is left blank.
  const only = placed[0];
  if (placed.length === 1 && only) only.width = Math.max(1, columns - MARK);
  return placed;
}

/** Pure: service text on one safe line: control characters, escapes and bidi controls made harmless. */
export function safeText(text: string | undefined, max = 400): string {
  return text === undefined ? '' : neutralize(flatten(text, max));
}

/** Pure: a compact age: "now", "42s", "5m", "3h", "2d", "3w". */
export function compactAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 10) return 'now';
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 7 * 86_400) return `${Math.floor(s / 86_400)}d`;
  return `${Math.min(99, Math.floor(s / (7 * 86_400)))}w`;
}

const STATE_TEXT: Record<RowState, [string, keyof Style]> = {
  working: ['● working', 'yellow'],
  finished: ['✓ finished', 'green'],
  failed: ['✗ failed', 'red'],
  unknown: ['? unknown', 'dim'],
};

const TREE: Record<Exclude<GroupMark, undefined>, string> = { first: '┌ ', middle: '├ ', last: '└ ' };

/** Pure: "#12" for a pull request's address that ends /pull/12, else "PR". */
export function prLabel(url: string | undefined): string {
  if (url === undefined) return '';
  const m = /\/pull\/([0-9]+)(?:[/?#]|$)/.exec(url);
  return m ? `#${m[1]}` : 'PR';
}

function fit(text: string, w: number): string {
  const c = cut(text, w);
  return c + ' '.repeat(Math.max(0, w - width(c)));
}

/** A cell's text and the style it is drawn in. */
function cell(name: ColumnName, row: BoardRow, mark: GroupMark, now: number): [string, (keyof Style)?] {
  const at = Date.parse(row.lastAt ?? row.usedAt);
  const cells: Record<ColumnName, () => [string, (keyof Style)?]> = {
    state: () => STATE_TEXT[row.state],
    title: () => [`${mark ? TREE[mark] : ''}${safeText(row.title) || '(untitled)'}`],
    agent: () => [safeText(row.agent, 40), 'dim'],
    since: () => [Number.isFinite(at) ? compactAge(now - at) : '', 'dim'],
    pr: () => [prLabel(row.pr), 'cyan'],
    latest: () => [safeText(row.latest), 'dim'],
  };
  return cells[name]();
}

/** What the board draws; `message`: the line above the keys (a message, or a prompt being typed). */
export interface BoardView {
  columns: number;
  rows: number;
  list: readonly BoardRow[];
  marks: readonly GroupMark[];
  selected: number;
  top: number;
  header: string;
  message: string;
  keys: string;
  now: number;
  style: Style;
}

/** Pure: the rows of the table the screen has room for (two lines above, two below). */
export function tableHeight(rows: number): number {
  return Math.max(1, rows - 4);
}

export function scrollTop(top: number, selected: number, height: number): number {
  if (selected < top) return selected;
  if (selected >= top + height) return selected - height + 1;
  return top;
}

/** Pure: the frame, drawn over the one before, never cleared first, so a redraw does not flicker. */
export function renderFrame(v: BoardView): string {
  const { columns, style } = v;
  const shown = v.list.slice(v.top, v.top + tableHeight(v.rows));
  const titles = Math.max(0, ...shown.map((r, i) => width(cell('title', r, v.marks[v.top + i], v.now)[0])));
  const placed = placeColumns(columns, titles);
  const headings = style.dim(`  ${placed.map((p) => fit(p.column.heading, p.width)).join(' ')}`);
  const lines: string[] = [style.bold(cut(v.header, columns)), headings];
  shown.forEach((row, n) => {
    const mark = v.marks[v.top + n];
    const cells = placed.map((p) => {
      const [text, paint] = cell(p.column.name, row, mark, v.now);
      return paint ? style[paint](fit(text, p.width)) : fit(text, p.width);
    });
    const line = `${v.top + n === v.selected ? '› ' : '  '}${cells.join(' ')}`;
    lines.push(v.top + n === v.selected ? style.bold(line) : line);
  });
  if (v.list.length === 0) lines.push(style.dim('  no sessions'));
  while (lines.length < v.rows - 2) lines.push('');
  lines.push(cut(v.message, columns - 1), style.dim(cut(v.keys, columns - 1)));
  return `\u001b[H${lines.slice(0, v.rows).join('\u001b[K\r\n')}\u001b[K\u001b[J`;
}
