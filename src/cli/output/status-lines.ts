// `agents wait` on a terminal: the header above each reply, and a status line per session on stderr, redrawn
// every second, cut to the width, at most a screenful; what is written meanwhile goes above (Stderr.around).
import type { OutStream, StatusRow } from '../../core/index.js';
import { formatDuration } from '../../util/duration.js';
import { flatten, neutralize } from '../../util/text.js';
import { cut as cutToWidth, width as displayWidth } from '../../util/width.js';
import { visibleWidth } from './screen.js';
import type { Stderr, SpinnerFrame } from './stderr.js';
import type { Style } from './style.js';
import type { TerminalCaps } from './terminal.js';

export type { StatusRow };

const titleText = (title: string | undefined) => (title === undefined ? '' : flatten(neutralize(title), 200));

/** The line above a reply on a terminal: the session's title (when known) and id. */
export function renderReplyHeader(
  sessionId: string,
  title: string | undefined,
  style: Style,
  columns = 80,
): string {
  const name = titleText(title);
  const tail = ` · ${sessionId} ──`;
  const room = columns - 1 - 3 - displayWidth(tail);
  // The whole id always (it is what a person copies); the title in what room is left, if any.
  let head = name !== '' && room >= 8 ? `── ${cutToWidth(name, room)}${tail}` : `── ${sessionId} ──`;
  if (displayWidth(head) > columns - 1) head = `── ${sessionId}`;
  return style.bold(head);
}

const MARK: Record<StatusRow['state'], [string, keyof Style]> = {
  starting: ['·', 'dim'],
  waiting: ['·', 'dim'],
  retrying: ['!', 'yellow'],
  done: ['✓', 'green'],
  failed: ['✗', 'red'],
  stopped: ['·', 'dim'],
};

/** One status line, at most `columns - 1` columns wide (so that it never wraps). */
export function renderStatusLine(row: StatusRow, now: number, columns: number, style: Style): string {
  const width = Math.max(10, columns - 1);
  const elapsed = formatDuration(Math.max(0, (row.until ?? now) - row.since));
  const state = `${row.state}${row.detail ? ` (${row.detail})` : ''} ${elapsed}`;
  const [mark, paint] = MARK[row.state];
  let right = row.agent ? ` · ${flatten(row.agent, 40)} · ${state}` : ` · ${state}`;
  // Narrow terminals: the title keeps at least a few columns; the agent goes first, then the state is cut.
  if (width - 2 - displayWidth(right) < 8 && row.agent) right = ` · ${state}`;
  const room = Math.max(4, width - 2 - displayWidth(right));
  const left = cutToWidth(titleText(row.title) || row.sessionId.slice(0, 8), room);
  const rightCut = cutToWidth(right, Math.max(0, width - 2 - displayWidth(left)));
  return `${style[paint](mark)} ${left}${style.dim(rightCut)}`;
}

/** The status lines of a run (set adds or replaces a row; stop takes them off for good); safe in any state. */
export type StatusLines = { set(id: string, row: StatusRow): void; delete(id: string): void; stop(): void };

const NONE: StatusLines = { set: () => undefined, delete: () => undefined, stop: () => undefined };

export type StatusLinesOptions = { stream: OutStream; stderr: Stderr; style: Style };

const ESC = '\u001b[';

/** Pure: the lines to draw for `rows`, at most `max` (the rest summed up in the last one). */
export function statusBlock(
  rows: StatusRow[],
  now: number,
  columns: number,
  max: number,
  style: Style,
): string[] {
  const line = (r: StatusRow) => renderStatusLine(r, now, columns, style);
  if (rows.length <= max) return rows.map(line);
  // Those still waiting first: what is done has already been printed.
  const active = rows.filter((r) => r.state !== 'done' && r.state !== 'failed');
  const shown = [...active, ...rows.filter((r) => !active.includes(r))].slice(0, Math.max(0, max - 1));
  const rest = rows.filter((r) => !shown.includes(r));
  const done = rest.filter((r) => r.state === 'done').length;
  const failed = rest.filter((r) => r.state === 'failed').length;
  const waiting = rest.length - done - failed;
  const parts = [waiting && `${waiting} waiting`, done && `${done} done`, failed && `${failed} failed`];
  const summary = `  … ${rest.length} more: ${parts.filter(Boolean).join(', ')}`;
  return [...shown.map(line), style.dim(summary.slice(0, Math.max(0, columns - 1)))];
}

class Board implements SpinnerFrame {
  private readonly rows = new Map<string, StatusRow>();
  /** Columns taken by each line on screen, to count the rows it takes if the terminal got narrower. */
  private drawn: number[] = [];
  isSpinning = false;
  private tick: NodeJS.Timeout | undefined;

  constructor(private readonly o: StatusLinesOptions) {}

  private get columns(): number {
    return this.o.stream.columns || 80;
  }

  set(id: string, row: StatusRow): void {
    this.rows.set(id, row);
    if (!this.isSpinning) {
      this.isSpinning = true;
      this.o.stderr.spinner = this;
      this.tick = setInterval(() => this.redraw(), 1000);
      this.tick.unref();
    }
    this.redraw();
  }

  delete(id: string): void {
    if (this.rows.delete(id)) this.redraw();
  }

  stop(): void {
    if (!this.isSpinning) return;
    this.o.stream.write(this.clearText());
    this.isSpinning = false;
    clearInterval(this.tick);
    this.o.stderr.spinner = undefined;
  }

  clear(): void {
    const text = this.clearText();
    if (text) this.o.stream.write(text);
  }

  render(): void {
    this.o.stream.write(this.drawText());
  }

  /** Clear and draw in one write, so the lines never flicker. */
  private redraw(): void {
    if (this.isSpinning) this.o.stream.write(this.clearText() + this.drawText());
  }

  /** What takes the drawn lines off the screen (they count as gone). */
  private clearText(): string {
    const cols = this.columns;
    const rows = this.drawn.reduce((n, w) => n + Math.max(1, Math.ceil(w / cols)), 0);
    this.drawn = [];
    return rows === 0 ? '' : `\r${ESC}${rows}A${ESC}J`;
  }

  private drawText(): string {
    const max = Math.max(1, Math.min(30, (this.o.stream.rows || 24) - 2));
    const lines = statusBlock([...this.rows.values()], Date.now(), this.columns, max, this.o.style);
    this.drawn = lines.map(visibleWidth);
    return lines.map((l) => `${l}\n`).join('');
  }
}

/** Status lines where stderr is an interactive terminal that can take them (as the spinner); else none. */
export function createStatusLines(caps: TerminalCaps, o: StatusLinesOptions): StatusLines {
  return caps.spinner ? new Board(o) : NONE;
}
