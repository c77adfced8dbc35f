// How wide text is on a terminal (wide CJK characters and emoji take two columns), and text cut to fit.
import stringWidth from 'string-width';

/** Columns `text` takes on a terminal. */
export function width(text: string): number {
  return stringWidth(text);
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Pure: `text` cut to at most `columns` columns, with `…` in place of what was cut. */
export function cut(text: string, columns: number): string {
  if (columns <= 0) return '';
  if (stringWidth(text) <= columns) return text;
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
