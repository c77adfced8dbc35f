// Pure renderers: data in, text out. Whether the text goes to stdout or stderr is the caller's choice.
import type { Message, Session } from '../api/types.js';
import { neutralize } from './sanitize.js';
import { PLAIN, type Style } from './style.js';

/** How service text is to be shown: neutralised on a terminal, as sent elsewhere. */
export interface TextMode {
  tty: boolean;
  style: Style;
}

/** Service text for this destination. */
export function serviceText(text: string, mode: Pick<TextMode, 'tty'>): string {
  return mode.tty ? neutralize(text) : text;
}

/** Ensures one trailing newline, so consecutive messages and the shell prompt do not run together. */
export function line(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** The human summary printed on stderr after a create in a terminal. */
export function renderCreated(session: Session, style: Style = PLAIN): string {
  const title = neutralize(session.title || '(untitled)');
  return [
    `${style.green('✓')} Created ${style.bold(title)}`,
    `  id   ${session.id}`,
    `  web  ${neutralize(session.session_html_url)}`,
  ].join('\n');
}

/** Next-step hints after work was left running. */
export function renderNextSteps(sessionId: string, style: Style = PLAIN): string {
  return [
    style.dim(`Follow it:   agents tail ${sessionId}`),
    style.dim(`Reply:       agents send ${sessionId} "…"`),
  ].join('\n');
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** The session header of `show`. */
export function renderSession(session: Session, style: Style = PLAIN): string {
  const prs = session.pull_requests.length
    ? session.pull_requests.map((p) => neutralize(p)).join(', ')
    : 'none';
  return [
    style.bold(neutralize(session.title || '(untitled)')),
    `  id             ${session.id}`,
    `  web            ${neutralize(session.session_html_url)}`,
    `  created        ${session.created_at}`,
    `  updated        ${session.updated_at}`,
    `  private        ${yesNo(session.is_private)}`,
    `  archived       ${yesNo(session.is_archived)}`,
    `  pull requests  ${prs}`,
  ].join('\n');
}

/** The heading of a thread in `show`. */
export function renderThreadHeading(threadId: string | null, index: number, style: Style = PLAIN): string {
  return `\n${style.dim(`── turn ${index} · thread ${threadId ?? '(none)'} ──`)}`;
}

function label(m: Message, style: Style): string {
  if (m.role === 'user') return style.cyan('you');
  if (m.type === 'final_message') return style.green('assistant (final)');
  if (m.type === 'tool_call') return style.yellow('tool call');
  return style.bold('assistant');
}

/** One message of a conversation view: a label line, then the text. */
export function renderMessage(m: Message, mode: TextMode): string {
  const when = m.created_at ? mode.style.dim(` · ${m.created_at}`) : '';
  return `${label(m, mode.style)}${when}\n${line(serviceText(m.message, mode))}`;
}
