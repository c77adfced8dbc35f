// How much of a screen text takes, to decide whether it needs the pager.
import { width } from '../../util/width.js';

// SGR sequences and OSC 8 hyperlinks take no columns.
// eslint-disable-next-line no-control-regex -- escape sequences are exactly what is matched
const INVISIBLE = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** Columns a line of styled text takes. */
export const visibleWidth = (line: string) => width(line.replace(INVISIBLE, ''));

/** Pure: the rows `text` fills on a terminal `columns` wide, long lines wrapping. */
export function screenLines(text: string, columns: number): number {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  let rows = 0;
  for (const l of lines) rows += Math.max(1, Math.ceil(visibleWidth(l) / Math.max(1, columns)));
  return rows;
}
