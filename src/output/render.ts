// Pure renderers: data in, text out. Where the text goes (stdout or stderr) is the presenter's choice.
import type { Session } from '../api/types.js';
import { neutralize } from '../util/text.js';
import { PLAIN, type Style } from './style.js';

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

/** What a chat leaves behind: the session's id and the commands that pick it up again. */
export function renderChatEnd(sessionId: string | undefined, style: Style = PLAIN): string {
  if (sessionId === undefined) return style.dim('No session was started.');
  return [
    `Session ${sessionId}`,
    style.dim(`  Continue it:  agents chat ${sessionId}`),
    style.dim(`  Follow it:    agents tail ${sessionId}`),
  ].join('\n');
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
    ...plans(session),
  ].join('\n');
}

/** The plans line of the header, when the service lists plans (the live service's plan_artifact_ids). */
function plans(session: Session): string[] {
  const ids = Array.isArray(session.plan_artifact_ids) ? session.plan_artifact_ids : [];
  if (ids.length === 0) return [];
  const n = ids.length === 1 ? '1 plan' : `${ids.length} plans`;
  return [`  plans          ${n}: agents plan ${session.id}`];
}
