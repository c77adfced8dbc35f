// List session messages, both forms: filters, ordering, paging and the self / new_messages links.
import type { ListedMessage, Message, MessagePage } from '../core/api/types.js';
import { MESSAGE_PAGE, served } from '../core/api/schemas/index.js';
import { apiError, json, type Reply } from './http.js';
import { notFound, type Call } from './sessions.js';
import type { Emulation } from './emulation.js';
import type { StoredMessage } from './store.js';
import { parseListQuery, type ParsedListQuery } from './validate.js';

const byStorage = (a: StoredMessage, b: StoredMessage) => a.createdMs - b.createdMs || a.seq - b.seq;

/** The spec sorts by created_at (storage order); the live service by `ts`, which need not follow storage. */
function selectMessages(
  stored: StoredMessage[],
  q: ParsedListQuery,
  sortBy: 'created_at' | 'ts',
): StoredMessage[] {
  const picked = stored.filter(
    ({ msg }) =>
      q.role.includes(msg.role) &&
      q.type.includes(msg.type) &&
      (q.thread_id === undefined || msg.chat_thread_id === q.thread_id) &&
      // A null ts never passes a gts filter: user messages cannot be polled by cursor.
      (q.gts === undefined || (msg.ts !== null && msg.ts > q.gts)),
  );
  const byTs = (a: StoredMessage, b: StoredMessage) =>
    (a.msg.ts ?? Number.NEGATIVE_INFINITY) - (b.msg.ts ?? Number.NEGATIVE_INFINITY) || byStorage(a, b);
  picked.sort(sortBy === 'ts' ? byTs : byStorage);
  if (q.direction === 'desc') picked.reverse();
  return picked;
}

/**
 * The `new_messages` cursor: the ts of the page's latest message (by created_at) with one, else now. The
 * spec's rule, hazards included: a lagging or repeated ts, or a later message of the same second, is skipped.
 */
function cursorOf(page: StoredMessage[], nowMs: number): number {
  const latest = page
    .filter((m) => m.msg.ts !== null)
    .sort(byStorage)
    .at(-1);
  return latest?.msg.ts ?? Math.floor(nowMs / 1000);
}

/** A final reply as Blocks' CI mock lists it: no `chat_id`, no `task_id` (the list was asked for one session). */
function bare(m: Message): ListedMessage {
  const { chat_id: _chat, task_id: _task, ...rest } = m;
  return rest;
}

export function listMessages(e: Emulation, call: Call): Reply {
  const d = e.dialect;
  const threaded = call.params.length > 1;
  const q = parseListQuery(call.url.searchParams, threaded, e.repeatedParams, d.defaultDirection);
  if (!q.ok) return apiError(422, 'UNPROCESSABLE_ENTITY', q.error);
  const record = call.session;
  if (!record) return notFound('Session');
  const query = { ...q.value };
  if (threaded) {
    const tid = call.params[1] ?? '';
    if (!record.threads.has(tid)) return notFound('Thread');
    query.thread_id = tid;
  }
  // Misbehaving: a filter by session the server forgets lists the whole workspace's messages.
  const pool = e.misbehave.ignoreSessionFilter
    ? e.store.inWorkspace(call.workspace).flatMap((r) => r.messages)
    : record.messages;
  const all = selectMessages(pool, query, d.sortBy);
  const start = (query.page - 1) * query.limit;
  const page = all.slice(start, start + query.limit);

  const here = `${d.linkBase(call.base)}${call.url.pathname}`;
  const cursor = String(cursorOf(page, e.store.now()));
  // The live service's link carries the cursor alone: a client must rebuild its own filters.
  const next = new URLSearchParams(d.linksKeepQuery ? call.url.searchParams : undefined);
  next.set('gts', cursor); // replaces an existing gts in place, else appends
  const body: Omit<MessagePage, 'items'> & { items: ListedMessage[] } = {
    items: page.map(({ msg }) => (d.bareFinal && msg.type === 'final_message' ? bare(msg) : msg)),
    meta: {
      total: all.length,
      page: query.page,
      limit: query.limit,
      total_pages: Math.ceil(all.length / query.limit),
    },
    _links: {
      self: { href: d.linksKeepQuery ? `${here}${call.url.search}` : here },
      new_messages: { href: `${here}?${next.toString()}` },
    },
  };
  // Its items were held to the contract as stored (a test's planted ones are the test's to choose).
  served(MESSAGE_PAGE, { ...body, items: [] });
  return json(200, body);
}
