// Pure renderers: data in, text out. Where the text goes (stdout or stderr) is the presenter's choice.
import type { Session } from '../../core/api/types.js';
import { flatten, neutralize } from '../../util/text.js';
import { PLAIN, type Style } from './style.js';
import { relativeTime, type TimeFormat } from './time.js';

/** The human summary printed on stderr after a create in a terminal. */
export function renderCreated(session: Session, style: Style = PLAIN): string {
  const title = neutralize(session.title || '(untitled)');
  return [
    `${style.green('✓')} Created ${style.bold(title)}`,
    `  id   ${session.id}`,
    `  web  ${neutralize(session.session_html_url ?? '')}`,
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
    `  web            ${neutralize(session.session_html_url ?? '')}`,
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

/** What a terminal's compact header of `show` says beside the session's own fields. */
export interface SessionCard {
  /** The agent, when known (the service's agent_name, or what this machine created it with). */
  agent?: string;
  /** The latest turn: 'working' (no final reply yet), 'finished', or undefined when nothing is shown. */
  state?: string;
  style: Style;
  time: TimeFormat;
  /** --verbose: the id and the web address too. */
  verbose?: boolean;
}

/** The status of a pull request, coloured by what it means. */
function prStatus(status: string, style: Style): string {
  const s = neutralize(status);
  if (/^(open|opened|draft)$/i.test(s)) return style.green(s);
  if (/^merged$/i.test(s)) return style.cyan(s);
  if (/^closed$/i.test(s)) return style.red(s);
  return s;
}

/**
 * The compact header of `show` on a terminal: the title; agent, state and times on one line; a line per
 * pull request with its status; the plans. No raw ids unless `verbose`.
 */
export function renderSessionCard(session: Session, c: SessionCard): string {
  const { style } = c;
  const facts = [
    c.agent !== undefined ? neutralize(flatten(c.agent, 40)) : undefined,
    c.state,
    session.is_archived ? 'archived' : undefined,
    session.is_private ? 'private' : undefined,
    session.created_at ? `created ${relativeTime(session.created_at, c.time)}` : undefined,
    session.updated_at &&
    relativeTime(session.updated_at, c.time) !== relativeTime(session.created_at ?? '', c.time)
      ? `updated ${relativeTime(session.updated_at, c.time)}`
      : undefined,
  ].filter((f): f is string => f !== undefined && f !== '');
  const list: unknown[] = Array.isArray(session.pull_requests) ? session.pull_requests : [];
  const prs = list.map((pr) => {
    if (typeof pr === 'object' && pr !== null) {
      const { url, status } = pr as { url?: unknown; status?: unknown };
      const address = typeof url === 'string' ? neutralize(url) : '(no address)';
      const what = typeof status === 'string' && status !== '' ? ` ${prStatus(status, style)}` : '';
      return `PR ${address}${what}`;
    }
    return `PR ${pullRequestText(pr)}`;
  });
  const ids = Array.isArray(session.plan_artifact_ids) ? session.plan_artifact_ids : [];
  const plans = ids.length
    ? [`${ids.length === 1 ? '1 plan' : `${ids.length} plans`}: ${style.dim(`agents plan ${session.id}`)}`]
    : [];
  const verbose = c.verbose
    ? [`id  ${session.id}`, `web ${neutralize(session.session_html_url ?? '')}`].map((l) => style.dim(l))
    : [];
  return [
    style.bold(neutralize(flatten(session.title || '(untitled)', 1000))),
    style.dim(facts.join(' · ')),
    ...prs,
    ...plans,
    ...verbose,
  ].join('\n');
}
