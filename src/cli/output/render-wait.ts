// Pure renderers of waits: the header above each reply of `agents wait` on a terminal, the status line of
// each session while it is waited on, and the lines of an answer that did not match its schema.
import { neutralize, flatten } from '../../util/text.js';
import { formatDuration } from '../../util/duration.js';
import { PLAIN, type Style } from './style.js';
import { cut as cutToWidth, width as displayWidth } from '../../util/width.js';
import type { SchemaError, SchemaProblem } from '../../core/events/schema-errors.js';
import type { StatusRow } from '../../core/events/session-items.js';

export type { StatusRow };

/** A title as one harmless line. */
function titleText(title: string | undefined, sessionId: string): string {
  const t = title === undefined ? '' : flatten(neutralize(title), 200);
  return t === '' ? sessionId.slice(0, 8) : t;
}

/** The line above a reply on a terminal: the session's title (when known) and id. */
export function renderReplyHeader(
  sessionId: string,
  title: string | undefined,
  style: Style = PLAIN,
  columns = 80,
): string {
  const name = title === undefined ? '' : flatten(neutralize(title), 200);
  const tail = ` · ${sessionId} ──`;
  const room = columns - 1 - 3 - displayWidth(tail);
  // The whole id always (it is what a person copies); the title in what room is left, if any.
  let head = name !== '' && room >= 8 ? `── ${cutToWidth(name, room)}${tail}` : `── ${sessionId} ──`;
  if (displayWidth(head) > columns - 1) head = `── ${sessionId}`;
  return style.bold(head);
}

const MARK: Record<StatusRow['state'], string> = {
  starting: '·',
  waiting: '·',
  retrying: '!',
  done: '✓',
  failed: '✗',
  stopped: '·',
};

function markStyle(row: StatusRow, style: Style, text: string): string {
  if (row.state === 'done') return style.green(text);
  if (row.state === 'failed') return style.red(text);
  if (row.state === 'retrying') return style.yellow(text);
  return style.dim(text);
}

/** One status line, at most `columns - 1` columns wide (so that it never wraps). */
export function renderStatusLine(row: StatusRow, now: number, columns: number, style: Style = PLAIN): string {
  const width = Math.max(10, columns - 1);
  const elapsed = formatDuration(Math.max(0, (row.until ?? now) - row.since));
  const state = `${row.state}${row.detail ? ` (${row.detail})` : ''} ${elapsed}`;
  const title = titleText(row.title, row.sessionId);
  const mark = MARK[row.state];
  let right = row.agent ? ` · ${flatten(row.agent, 40)} · ${state}` : ` · ${state}`;
  // Narrow terminals: the title keeps at least a few columns; the agent goes first, then the state is cut.
  if (width - 2 - displayWidth(right) < 8 && row.agent) right = ` · ${state}`;
  const room = Math.max(4, width - 2 - displayWidth(right));
  const left = cutToWidth(title, room);
  const rightCut = cutToWidth(right, Math.max(0, width - 2 - displayWidth(left)));
  return `${markStyle(row, style, mark)} ${left}${style.dim(rightCut)}`;
}

/** One error of a schema's check as a line: its path (or "the value") and the message. */
function schemaErrorLine(e: SchemaError): string {
  return `${e.path === '' ? '(the value)' : e.path}: ${e.message}`;
}

/** The line before a follow-up asks for the answer again. */
export function renderSchemaRetry(problem: SchemaProblem, retry: number, of: number): string {
  const n = problem.kind === 'mismatch' ? problem.errors.length : 0;
  const what = problem.kind === 'no-json' ? 'no JSON found' : `${n} error${n === 1 ? '' : 's'}`;
  return `answer did not match the schema (${what}); asking again (${retry} of ${of})`;
}

/** What was wrong with the last answer, line by line, for the error a schema mismatch ends with. */
export function renderSchemaErrors(problem: SchemaProblem): string[] {
  if (problem.kind === 'no-json')
    return ['the last answer held no JSON (the whole reply, or a ```json block)'];
  return [
    'the last answer did not match the schema:',
    ...problem.errors.map((e) => `  ${schemaErrorLine(e)}`),
  ];
}
