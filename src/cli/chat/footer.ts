// The footer of `agents chat`: a status line, then the input line. Printing wipes it, writes, draws it again:
// no alternate screen or scroll regions, so the terminal's scrollback keeps the conversation (tmux too).
import type { OutStream } from '../../core/index.js';
import { neutralize } from '../../util/text.js';
import { width } from '../../util/width.js';

export interface FooterInput {
  /** The status line, already cut to width and styled. */
  status: string;
  text: readonly string[];
  cursor: number;
  /** The prompt before the first row (styled) and its width. */
  prompt: { text: string; width: number };
  columns: number | undefined;
  /** The terminal's height: the input shows at most this many rows less two. */
  rows: number | undefined;
}

/** The footer's rows; when the text is taller than the terminal allows, the rows around the cursor. */
export function layoutFooter(i: FooterInput) {
  const usable = Math.max(12, (i.columns && i.columns > 0 ? i.columns : 80) - 1);
  const indent = ' '.repeat(i.prompt.width);
  const rows: string[] = [i.prompt.text];
  const widths: number[] = [];
  let col = i.prompt.width;
  let cursorRow = 0;
  let cursorCol = col;
  const newRow = () => {
    widths.push(col);
    rows.push(indent);
    col = i.prompt.width;
  };
  i.text.forEach((g, index) => {
    // A tab as two spaces, control characters made visible.
    const shown = g === '\n' ? '' : g === '\t' ? '  ' : neutralize(g);
    const w = width(shown);
    if (col + w > usable) newRow();
    if (index === i.cursor) [cursorRow, cursorCol] = [rows.length - 1, col];
    if (g === '\n') newRow();
    else {
      rows[rows.length - 1] += shown;
      col += w;
    }
  });
  // After the last character; a full row leaves it in the last column, which is never written.
  if (i.cursor >= i.text.length) [cursorRow, cursorCol] = [rows.length - 1, col];
  widths.push(col);
  const room = Math.max(1, (i.rows && i.rows > 0 ? i.rows : 24) - 2);
  let first = 0;
  if (rows.length > room) {
    first = Math.min(Math.max(0, cursorRow - room + 1), rows.length - room);
    cursorRow -= first;
  }
  return {
    /** Each row styled, at most `columns - 1` wide: no terminal has to decide whether a full row wraps. */
    rows: [i.status, ...rows.slice(first, first + room)],
    /** Where the cursor goes, from the footer's top left. */
    cursorRow: cursorRow + 1,
    cursorCol,
    /** Each row's width (to know where the cursor went when the terminal was resized). */
    widths: [width(i.status), ...widths.slice(first, first + room)],
  };
}

type FooterLayout = ReturnType<typeof layoutFooter>;

/**
 * The cursor's row in the footer after the terminal became `columns` wide. Narrower, a terminal
 * that reflows (tmux, VTE, iTerm2, kitty, Windows Terminal…) wraps each row that no longer fits, which
 * pushes the cursor down; wider, rows written with explicit line breaks stay as they were.
 */
export function reflowedCursorRow(layout: FooterLayout, columns: number): number {
  if (columns <= 0) return layout.cursorRow;
  let row = 0;
  for (let r = 0; r < layout.cursorRow; r += 1)
    row += Math.max(1, Math.ceil((layout.widths[r] ?? 0) / columns));
  return row + Math.floor(layout.cursorCol / columns);
}

const up = (n: number) => (n > 0 ? `\u001b[${n}A` : '');
const down = '\u001b[1B';
const right = (n: number) => (n > 0 ? `\u001b[${n}C` : '');
const ERASE_ROW = '\u001b[2K';

/**
 * The footer on a terminal stream, drawn with relative cursor moves only. Its rows are erased one by one, not
 * with "erase below": from the top-left corner that is a whole-screen clear, which tmux puts in its history.
 */
export class Footer {
  private shown: (FooterLayout & { height: number }) | undefined;

  constructor(private readonly out: OutStream) {}

  /** From the cursor's place in the footer: every row of it erased, the cursor at its first column. */
  private erase(): string {
    if (!this.shown) return '\r';
    const { height } = this.shown;
    let seq = `${up(this.shown.cursorRow)}\r`;
    for (let row = 0; row < height; row += 1) seq += row < height - 1 ? `${ERASE_ROW}${down}` : ERASE_ROW;
    return `${seq}${up(height - 1)}`;
  }

  /** Draws `layout` in place of what is there, in one write. */
  draw(layout: FooterLayout): void {
    const last = layout.rows.length - 1;
    this.out.write(
      `${this.erase()}${layout.rows.join('\r\n')}\r${up(last - layout.cursorRow)}${right(layout.cursorCol)}`,
    );
    this.shown = { ...layout, height: layout.rows.length };
  }

  /** The terminal is now `columns` wide: where the cursor went, and how tall the footer became. */
  resized(columns: number | undefined): void {
    if (this.shown && columns !== undefined && columns > 0) {
      const height = this.shown.widths.reduce((n, w) => n + Math.max(1, Math.ceil(w / columns)), 0);
      this.shown = { ...this.shown, cursorRow: reflowedCursorRow(this.shown, columns), height };
    }
  }

  /** Wipes the footer; the cursor is left where its first row was, at the first column. */
  clear(): void {
    if (!this.shown) return;
    this.out.write(this.erase());
    this.shown = undefined;
  }
}
