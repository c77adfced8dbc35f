// How wide text is on a terminal (wide CJK characters and emoji take two columns), and text cut to fit.
// Most text is printable ASCII, one column a character: string-width (whose Intl.Segmenter and emoji
// patterns cost about 20 ms to set up) and a grapheme segmenter are used only for the rest. The build
// loads string-width on its first call, not with the program (scripts/build.mjs).
import stringWidth from 'string-width';

const ASCII = /^[\x20-\x7e]*$/;

/** Columns `text` takes on a terminal. */
export function width(text: string): number {
  return ASCII.test(text) ? text.length : stringWidth(text);
}

let segmenter: Intl.Segmenter | undefined;

/** Pure: `text` cut to at most `columns` columns, with `…` in place of what was cut. */
export function cut(text: string, columns: number): string {
  if (columns <= 0) return '';
  if (width(text) <= columns) return text;
  if (ASCII.test(text)) return `${text.slice(0, columns - 1)}…`;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > columns - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}
