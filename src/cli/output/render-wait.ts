// Pure renderers of `agents wait` on a terminal: the header above each reply, and the status line of each
// session while it is waited on.
import { neutralize, flatten } from '../../util/text.js';
import { formatDuration } from '../../util/duration.js';
import { PLAIN, type Style } from './style.js';
import { cut as cutToWidth, width as displayWidth } from '../../util/width.js';
import type { StatusRow } from '../../core/events/session-items.js';

export type { StatusRow };

/** A title as one harmless line ('' when none). */
const titleText = (title: string | undefined) => (title === undefined ? '' : flatten(neutralize(title), 200));

/** The line above a reply on a terminal: the session's title (when known) and id. */
export function renderReplyHeader(
  sessionId: string,
  title: string | undefined,
  style: Style = PLAIN,
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

/** Each state's mark, and its colour. */
const MARK: Record<StatusRow['state'], [string, keyof Style]> = {
  starting: ['·', 'dim'],
  waiting: ['·', 'dim'],
  retrying: ['!', 'yellow'],
  done: ['✓', 'green'],
  failed: ['✗', 'red'],
  stopped: ['·', 'dim'],
};

/** One status line, at most `columns - 1` columns wide (so that it never wraps). */
export function renderStatusLine(row: StatusRow, now: number, columns: number, style: Style = PLAIN): string {
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
