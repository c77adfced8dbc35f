// The board's rows, pure: a known session (what `ls` lists) and what the board has since learnt of it.
import type { KnownSession } from '../../../core/index.js';

export type RowState = 'working' | 'finished' | 'failed' | 'unknown';

/** One session on the board. Text fields are as the service sent them: the layout makes them safe. */
export interface BoardRow {
  id: string;
  title?: string;
  agent?: string;
  state: RowState;
  /** When this machine last created, sent to or refreshed it (ISO): the board's order. */
  usedAt: string;
  createdAt?: string;
  group?: string;
  threadId?: string;
  lastAt?: string;
  latest?: string;
  pr?: string;
  web?: string;
}

const STATE_OF = { working: 'working', finished: 'finished', archived: 'finished', gone: 'failed' } as const;
const stateOf = (known: KnownSession['state']): RowState => (known ? STATE_OF[known] : 'unknown');

/** Pure: a row for a known session, or that row brought up to date with the state file (`old` kept where newer). */
export function rowOf(s: KnownSession, old?: BoardRow): BoardRow {
  const row: BoardRow = { ...old, id: s.id, usedAt: s.usedAt, state: old?.state ?? stateOf(s.state) };
  const fields = {
    title: s.title,
    agent: s.agent,
    createdAt: s.createdAt,
    web: s.web,
    group: s.group?.toLowerCase() || undefined,
  };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) Object.assign(row, { [k]: v });
  // A later create or send (here or in another run) started a turn the board has not seen.
  if (s.threadId !== undefined && s.threadId !== old?.threadId) {
    row.threadId = s.threadId;
    if (old !== undefined) row.state = s.state === 'finished' ? 'finished' : 'working';
  }
  return row;
}

/** Pure: newest first, each group's attempts together at the place of its newest, attempt 1 first. */
export function orderRows(rows: readonly BoardRow[]): BoardRow[] {
  const byUse = [...rows].sort((a, b) => (a.usedAt < b.usedAt ? 1 : a.usedAt > b.usedAt ? -1 : 0));
  const out: BoardRow[] = [];
  const placed = new Set<string>();
  for (const r of byUse) {
    if (r.group === undefined) out.push(r);
    else if (!placed.has(r.group)) {
      placed.add(r.group);
      const members = byUse.filter((m) => m.group === r.group);
      out.push(...members.sort((a, b) => (a.createdAt ?? a.usedAt).localeCompare(b.createdAt ?? b.usedAt)));
    }
  }
  return out;
}

export type GroupMark = 'first' | 'middle' | 'last' | undefined;

export function groupMarks(rows: readonly BoardRow[]): GroupMark[] {
  return rows.map((r, i) => {
    if (r.group === undefined) return undefined;
    const before = rows[i - 1]?.group === r.group;
    const after = rows[i + 1]?.group === r.group;
    if (!before && !after) return undefined;
    return !before ? 'first' : after ? 'middle' : 'last';
  });
}

export function filterRows(rows: readonly BoardRow[], text: string): BoardRow[] {
  const needle = text.trim().toLowerCase();
  return rows.filter((r) =>
    [r.title, r.agent, r.id, r.group, r.state, r.latest].some((f) => f?.toLowerCase().includes(needle)),
  );
}
