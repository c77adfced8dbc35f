// One status line per session on stderr while `agents wait` waits, redrawn in place every second, cut to the
// width, at most a screenful; what is written meanwhile goes above them (Stderr.around, as for the spinner).
import type { OutStream } from '../../core/io/io.js';
import type { Stderr, SpinnerFrame } from './stderr.js';
import type { Style } from './style.js';
import type { TerminalCaps } from './terminal.js';
import { renderStatusLine, type StatusRow } from './render-wait.js';
import { visibleWidth } from './screen.js';

/** The status lines of a run (set adds or replaces a row; stop takes them off for good); safe in any state. */
export interface StatusLines {
  set(id: string, row: StatusRow): void;
  delete(id: string): void;
  stop(): void;
}

const NONE: StatusLines = { set: () => undefined, delete: () => undefined, stop: () => undefined };

export interface StatusLinesOptions {
  stream: OutStream;
  stderr: Stderr;
  style: Style;
}

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
  private active = false;
  private tick: NodeJS.Timeout | undefined;

  constructor(private readonly o: StatusLinesOptions) {}

  get isSpinning(): boolean {
    return this.active;
  }

  private get columns(): number {
    return this.o.stream.columns || 80;
  }

  set(id: string, row: StatusRow): void {
    this.rows.set(id, row);
    if (!this.active) this.start();
    this.redraw();
  }

  delete(id: string): void {
    if (this.rows.delete(id)) this.redraw();
  }

  stop(): void {
    if (!this.active) return;
    this.o.stream.write(this.clearText());
    this.active = false;
    clearInterval(this.tick);
    this.tick = undefined;
    this.o.stderr.attach(undefined);
  }

  clear(): void {
    const text = this.clearText();
    if (text) this.o.stream.write(text);
  }

  render(): void {
    this.o.stream.write(this.drawText());
  }

  private start(): void {
    this.active = true;
    this.o.stderr.attach(this);
    this.tick = setInterval(() => this.redraw(), 1000);
    this.tick.unref();
  }

  /** Clear and draw in one write, so the lines never flicker. */
  private redraw(): void {
    if (this.active) this.o.stream.write(this.clearText() + this.drawText());
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
