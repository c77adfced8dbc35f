// Pure renderers: data in, text out. Where the text goes (stdout or stderr) is the presenter's choice.
import type { Message, Session } from '../api/types.js';
import { neutralize } from '../util/text.js';
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

/**
 * What to type next, after work was left running (follow it, reply) or after a reply arrived (reply,
 * read the whole conversation).
 */
export function renderNextSteps(sessionId: string, finished: boolean, style: Style = PLAIN): string {
  const steps = finished
    ? [`Reply:       agents send ${sessionId} "…"`, `Read it all: agents show ${sessionId}`]
    : [`Follow it:   agents tail ${sessionId}`, `Reply:       agents send ${sessionId} "…"`];
  return steps.map((s) => style.dim(s)).join('\n');
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** A pull request as one line: its address, and its status when the service gives one. */
export function pullRequestText(pr: unknown): string {
  if (typeof pr === 'string') return neutralize(pr);
  if (typeof pr === 'object' && pr !== null) {
    const { url, status } = pr as { url?: unknown; status?: unknown };
    const address = typeof url === 'string' ? neutralize(url) : '(no address)';
    return typeof status === 'string' && status !== '' ? `${address} (${neutralize(status)})` : address;
  }
  return neutralize(JSON.stringify(pr) ?? '');
}

/** The session header of `show`. */
export function renderSession(session: Session, style: Style = PLAIN): string {
  const list: unknown[] = Array.isArray(session.pull_requests) ? session.pull_requests : [];
  const prs = list.length ? list.map(pullRequestText).join(', ') : 'none';
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

/** The heading of a turn (a thread) in `show`. */
export function renderTurnHeading(threadId: string | null, index: number, style: Style = PLAIN): string {
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
