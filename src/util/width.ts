// How wide text is on a terminal (wide CJK characters and emoji take two columns), and text cut to fit.
// Most text is printable ASCII, one column a character: string-width and a segmenter only for the rest.
import type stringWidthOf from 'string-width';

// string-width is required on first use: loading it sets up an Intl.Segmenter and its emoji patterns, about
// 30 ms on Node 22 to 26, which a run that measures only ASCII (every run off a terminal) must not pay. A
// bundle (dist/, the benches) evaluates a required ES module when first required; vitest gives a `require`.
let loaded: typeof stringWidthOf | undefined;
function stringWidth(text: string): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: loaded on first use
  loaded ??= (require('string-width') as { default: typeof stringWidthOf }).default;
  return loaded(text);
}

const ASCII = /^[\x20-\x7e]*$/;

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
