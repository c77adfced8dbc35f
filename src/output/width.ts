// How many terminal columns text takes, so that a line cut to the terminal's width never wraps (a
// wrapped status line would throw off the count of lines to redraw). Wide East Asian characters and
// emoji take two columns, combining marks, joiners and variation selectors none: close to what
// terminals do.

/** Ranges of code points two columns wide, low to high. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];
const MARK = /^\p{M}$/u;

/** Columns taken by one code point. */
function charWidth(c: string): number {
  const cp = c.codePointAt(0) ?? 0;
  if ((cp >= 0x200b && cp <= 0x200f) || cp === 0x2060 || (cp >= 0xfe00 && cp <= 0xfe0f) || MARK.test(c)) {
    return 0;
  }
  return WIDE.some(([lo, hi]) => cp >= lo && cp <= hi) ? 2 : 1;
}

/** Pure: the columns `text` takes (no escape sequences in it). */
export function displayWidth(text: string): number {
  let w = 0;
  for (const c of text) w += charWidth(c);
  return w;
}

/** Pure: `text` cut to at most `columns` columns, with `…` where it was cut. */
export function cutToWidth(text: string, columns: number): string {
  if (columns <= 0) return '';
  if (displayWidth(text) <= columns) return text;
  let out = '';
  let w = 0;
  for (const c of text) {
    const cw = charWidth(c);
    if (w + cw > columns - 1) break;
    out += c;
    w += cw;
  }
  return `${out}…`;
}
