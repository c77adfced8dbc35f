// Pure renderers of the sessions this machine knows (`agents ls`, the session chooser).
import type { KnownSession } from '../../core/state/known-sessions.js';
import { flatten, neutralize } from '../../util/text.js';
import { cut, width } from '../../util/width.js';
import type { Style } from './style.js';
import { relativeTime, type TimeFormat } from './time.js';

/** Pure: one line a session, tab-separated: id, title, agent, state, created (ISO); empty where unknown. */
export function renderSessionsPlain(list: readonly KnownSession[]): string {
  const field = (v: string | undefined) => (v === undefined ? '' : flatten(v, 1000).replace(/\t/g, ' '));
  return list
    .map((s) => [s.id, field(s.title), field(s.agent), field(s.state), field(s.createdAt)].join('\t') + '\n')
    .join('');
}

const title = (s: KnownSession) => neutralize(flatten(s.title ?? '(untitled)', 1000));

/** What is known of a session beside its title: agent, state, when it was created. */
function facts(s: KnownSession, time: TimeFormat): string[] {
  return [
    s.agent !== undefined ? neutralize(flatten(s.agent, 40)) : undefined,
    s.state,
    s.createdAt ? `created ${relativeTime(s.createdAt, time)}` : undefined,
  ].filter((f): f is string => f !== undefined);
}

/** Pure: one line for the session chooser: title · agent · state · created · the id's first characters. */
export function sessionChoiceLabel(s: KnownSession, time: TimeFormat, columns = 80): string {
  const tail = ` · ${s.id.slice(0, 8)}`;
  return `${cut([title(s), ...facts(s, time)].join(' · '), Math.max(20, columns - 4 - tail.length))}${tail}`;
}

/** Pure: the sessions for a terminal: each title cut to the width, the id (never cut) and the facts under it. */
export function renderSessions(
  list: readonly KnownSession[],
  v: { style: Style; time: TimeFormat; columns?: number },
): string {
  const columns = v.columns ?? 80;
  const lines: string[] = [];
  for (const s of list) {
    lines.push(v.style.bold(cut(title(s), columns - 1)));
    const about = facts(s, v.time).join(' · ');
    const both = `  ${s.id}${about ? `  ${about}` : ''}`;
    if (width(both) < columns) lines.push(`  ${s.id}${about ? `  ${v.style.dim(about)}` : ''}`);
    else {
      lines.push(`  ${s.id}`);
      if (about) lines.push(v.style.dim(cut(`  ${about}`, columns - 1)));
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
