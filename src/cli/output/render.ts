// Pure renderers: data in, text out. Where the text goes (stdout or stderr) is the presenter's choice.
import type { Session } from '../../core/index.js';
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

// The service's fields are read leniently (schemas/fields.ts `kept`): these lists may be anything.
const pullRequests = (s: Session): unknown[] => (Array.isArray(s.pull_requests) ? s.pull_requests : []);

/** "1 plan", "3 plans", or undefined when the service lists none (the live service's plan_artifact_ids). */
function plans(s: Session): string | undefined {
  const n = Array.isArray(s.plan_artifact_ids) ? s.plan_artifact_ids.length : 0;
  return n === 0 ? undefined : n === 1 ? '1 plan' : `${n} plans`;
}

/** A pull request as one line: its address, and its status (as `status` writes it) when the service gives one. */
function pullRequestText(pr: unknown, status = (s: string) => `(${neutralize(s)})`): string {
  if (typeof pr === 'string') return neutralize(pr);
  if (typeof pr !== 'object' || pr === null) return neutralize(JSON.stringify(pr) ?? '');
  const { url, status: s } = pr as { url?: unknown; status?: unknown };
  const address = typeof url === 'string' ? neutralize(url) : '(no address)';
  return typeof s === 'string' && s !== '' ? `${address} ${status(s)}` : address;
}

export function renderSession(session: Session, style: Style = PLAIN): string {
  const prs = pullRequests(session).map((pr) => pullRequestText(pr));
  const n = plans(session);
  return [
    style.bold(neutralize(session.title || '(untitled)')),
    `  id             ${session.id}`,
    `  web            ${neutralize(session.session_html_url ?? '')}`,
    `  created        ${session.created_at}`,
    `  updated        ${session.updated_at}`,
    `  private        ${session.is_private ? 'yes' : 'no'}`,
    `  archived       ${session.is_archived ? 'yes' : 'no'}`,
    `  pull requests  ${prs.length ? prs.join(', ') : 'none'}`,
    ...(n ? [`  plans          ${n}: agents plan ${session.id}`] : []),
  ].join('\n');
}

/** What a terminal's compact header of `show` says beside the session's own fields. */
export interface SessionCard {
  /** The agent, when known (the service's agent_name, or what this machine created it with). */
  agent?: string;
  /** The latest turn: 'working' (no final reply yet), 'finished', or undefined when nothing is shown. */
  state?: string;
  style: Style;
  time: TimeFormat;
  verbose?: boolean;
}

function prStatus(status: string, style: Style): string {
  const s = neutralize(status);
  if (/^(open|opened|draft)$/i.test(s)) return style.green(s);
  if (/^merged$/i.test(s)) return style.cyan(s);
  if (/^closed$/i.test(s)) return style.red(s);
  return s;
}

/** The compact header of `show` on a terminal: no raw ids unless `verbose`. */
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
  const n = plans(session);
  const verbose = c.verbose
    ? [`id  ${session.id}`, `web ${neutralize(session.session_html_url ?? '')}`].map((l) => style.dim(l))
    : [];
  return [
    style.bold(neutralize(flatten(session.title || '(untitled)', 1000))),
    style.dim(facts.join(' · ')),
    ...pullRequests(session).map((pr) => `PR ${pullRequestText(pr, (s) => prStatus(s, style))}`),
    ...(n ? [`${n}: ${style.dim(`agents plan ${session.id}`)}`] : []),
    ...verbose,
  ].join('\n');
}
