// List session messages: filters, defaults, ordering, paging, meta, links and the new_messages cursor.
// Sessions are made with [[orphan]] (no turn runs) and filled through the addMessage hook, so every
// ts and created_at is exact.
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../../src/core/api/types.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { call, create, list, start } from '../../support/api-calls.js';

const OTHER = '00000000-0000-4000-8000-000000000000';

/** An empty session plus a helper to add assistant messages at exact times. */
type Add = (m: Partial<Omit<Message, 'chat_thread_id'>> & { at?: number }) => Message;

async function fixture(em: RunningEmulator): Promise<{ s: Session; tid: string; add: Add }> {
  const s = await create(em, 'fixture [[orphan]]');
  const tid = s.thread_id ?? '';
  return { s, tid, add: (m) => addTo(em, s.id, tid, m) };
}

function addTo(
  em: RunningEmulator,
  sid: string,
  tid: string,
  m: Partial<Omit<Message, 'chat_thread_id'>> & { at?: number },
): Message {
  const { at, ...rest } = m;
  return em.addMessage(sid, {
    chat_thread_id: tid,
    role: 'assistant',
    type: 'message',
    message: 'm',
    ...(at === undefined ? {} : { created_at: new Date(Date.UTC(2030, 0, 1, 0, 0, 0, at)).toISOString() }),
    ...rest,
  });
}

const ids = (items: Message[]) => items.map((m) => m.message);

describe('GET …/messages filters', () => {
  it('defaults to type message + final_message and role assistant', async () => {
    const em = await start();
    const { s, add } = await fixture(em);
    add({ role: 'user', message: 'u', at: 1 });
    add({ type: 'message', message: 'a', at: 2 });
    add({ type: 'tool_call', message: 't', at: 3 });
    add({ type: 'final_message', message: 'f', at: 4 });
    const page = await list(em, `/rest/v1/sessions/${s.id}/messages`);
    expect(ids(page.items)).toEqual(['f', 'a']);
  });

  it('combines repeated type values, and takes role=user', async () => {
    const em = await start();
    const { s, add } = await fixture(em);
    add({ role: 'user', message: 'u', at: 1 });
    add({ type: 'message', message: 'a', at: 2 });
    add({ type: 'tool_call', message: 't', at: 3 });
    add({ type: 'final_message', message: 'f', at: 4 });
    const base = `/rest/v1/sessions/${s.id}/messages`;
    expect(ids((await list(em, `${base}?type=tool_call&type=message`)).items)).toEqual(['t', 'a']);
    expect(ids((await list(em, `${base}?type=final_message`)).items)).toEqual(['f']);
    expect(ids((await list(em, `${base}?role=user`)).items)).toEqual(['u']);
  });

  it('filters by thread_id on the unthreaded form and ignores it on the threaded form', async () => {
    const em = await start();
    const { s, tid, add } = await fixture(em);
    add({ message: 'first-thread', at: 1 });
    const t2 = '11111111-1111-4111-8111-111111111111';
    addTo(em, s.id, t2, { message: 'second-thread', at: 2 });
    const base = `/rest/v1/sessions/${s.id}`;
    expect(ids((await list(em, `${base}/messages`)).items)).toEqual(['second-thread', 'first-thread']);
    expect(ids((await list(em, `${base}/messages?thread_id=${t2}`)).items)).toEqual(['second-thread']);
    expect(ids((await list(em, `${base}/threads/${tid}/messages`)).items)).toEqual(['first-thread']);
    expect(ids((await list(em, `${base}/threads/${tid}/messages?thread_id=${t2}`)).items)).toEqual([
      'first-thread',
    ]);
    // Ignored means not even validated there.
    expect(ids((await list(em, `${base}/threads/${tid}/messages?thread_id=zzz`)).items)).toEqual([
      'first-thread',
    ]);
  });

  it('gts is strictly greater, and a null ts never matches', async () => {
    const em = await start();
    const { s, add } = await fixture(em);
    add({ role: 'user', message: 'u', ts: null, at: 0 });
    add({ message: 'a100', ts: 100, at: 1 });
    add({ message: 'b101', ts: 101, at: 2 });
    add({ message: 'c101', ts: 101, at: 3 });
    add({ message: 'd102', ts: 102, at: 4 });
    const base = `/rest/v1/sessions/${s.id}/messages`;
    expect(ids((await list(em, `${base}?gts=101`)).items)).toEqual(['d102']);
    expect(ids((await list(em, `${base}?gts=100&direction=asc`)).items)).toEqual(['b101', 'c101', 'd102']);
    expect(ids((await list(em, `${base}?gts=100.5&direction=asc`)).items)).toEqual(['b101', 'c101', 'd102']);
    expect((await list(em, `${base}?role=user&gts=-1`)).items).toEqual([]);
    expect((await list(em, `${base}?role=user`)).items).toHaveLength(1);
  });
});

describe('GET …/messages ordering and paging', () => {
  it('sorts by created_at (not storage order), newest first by default, ties by storage order', async () => {
    const em = await start();
    const { s, add } = await fixture(em);
    add({ message: 'late', at: 30 });
    add({ message: 'early', at: 10 });
    add({ message: 'tie-1', at: 20 });
    add({ message: 'tie-2', at: 20 });
    const base = `/rest/v1/sessions/${s.id}/messages`;
    expect(ids((await list(em, base)).items)).toEqual(['late', 'tie-2', 'tie-1', 'early']);
    expect(ids((await list(em, `${base}?direction=desc`)).items)).toEqual([
      'late',
      'tie-2',
      'tie-1',
      'early',
    ]);
    expect(ids((await list(em, `${base}?direction=asc`)).items)).toEqual(['early', 'tie-1', 'tie-2', 'late']);
  });

  it('pages with limit and reports meta, including the last page and a page past the end', async () => {
    const em = await start();
    const { s, add } = await fixture(em);
    for (let i = 1; i <= 5; i += 1) add({ message: `m${i}`, at: i });
    const base = `/rest/v1/sessions/${s.id}/messages?direction=asc&limit=2`;
    const p1 = await list(em, `${base}&page=1`);
    expect(ids(p1.items)).toEqual(['m1', 'm2']);
    expect(p1.meta).toEqual({ total: 5, page: 1, limit: 2, total_pages: 3 });
    const p3 = await list(em, `${base}&page=3`);
    expect(ids(p3.items)).toEqual(['m5']);
    expect(p3.meta).toEqual({ total: 5, page: 3, limit: 2, total_pages: 3 });
    const p9 = await list(em, `${base}&page=9`);
    expect(p9.items).toEqual([]);
    expect(p9.meta).toEqual({ total: 5, page: 9, limit: 2, total_pages: 3 });
    const whole = await list(em, `/rest/v1/sessions/${s.id}/messages`);
    expect(whole.meta).toEqual({ total: 5, page: 1, limit: 50, total_pages: 1 });
  });

  it('reports total_pages 0 for an empty list', async () => {
    const em = await start();
    const { s } = await fixture(em);
    expect((await list(em, `/rest/v1/sessions/${s.id}/messages`)).meta).toEqual({
      total: 0,
      page: 1,
      limit: 50,
      total_pages: 0,
    });
  });
});

describe('GET …/messages links', () => {
  it('self keeps every parameter; new_messages sets gts to the latest (by created_at) ts on the page', async () => {
    const em = await start();
    const { s, add } = await fixture(em);
    // Storage order and ts disagree: the latest by created_at has the smaller ts.
    add({ message: 'x', ts: 500, at: 1 });
    add({ message: 'y', ts: 400, at: 2 });
    const path = `/rest/v1/sessions/${s.id}/messages?type=message&type=final_message&limit=10&foo=bar`;
    const page = await list(em, path);
    expect(page._links?.self?.href).toBe(`${em.url}${path}`);
    expect(page._links?.new_messages?.href).toBe(`${em.url}${path}&gts=400`);
    const asc = await list(em, `${path}&direction=asc`);
    expect(asc._links?.new_messages?.href).toBe(`${em.url}${path}&direction=asc&gts=400`);
  });

  it('new_messages replaces an existing gts in place', async () => {
    const em = await start();
    const { s, add } = await fixture(em);
    add({ message: 'x', ts: 700, at: 1 });
    const page = await list(em, `/rest/v1/sessions/${s.id}/messages?gts=5&limit=3`);
    expect(page._links?.new_messages?.href).toBe(
      `${em.url}/rest/v1/sessions/${s.id}/messages?gts=700&limit=3`,
    );
  });

  it('uses the latest message that has a ts; with none (or no items), the current epoch second', async () => {
    const em = await start({ turnMsPerRequest: 0 }); // the emulator's clock is the real one here
    const { s, add } = await fixture(em);
    add({ message: 'with-ts', ts: 42, at: 1 });
    add({ message: 'no-ts', ts: null, at: 2 });
    const page = await list(em, `/rest/v1/sessions/${s.id}/messages`);
    expect(new URL(page._links?.new_messages?.href ?? '').searchParams.get('gts')).toBe('42');

    const before = Math.floor(Date.now() / 1000);
    const empty = await list(em, `/rest/v1/sessions/${s.id}/messages?type=tool_call`);
    const user = await list(em, `/rest/v1/sessions/${s.id}/messages?role=user`);
    const after = Math.floor(Date.now() / 1000);
    for (const p of [empty, user]) {
      const gts = Number(new URL(p._links?.new_messages?.href ?? '').searchParams.get('gts'));
      expect(gts).toBeGreaterThanOrEqual(before);
      expect(gts).toBeLessThanOrEqual(after);
    }
  });

  it('new_messages works on the threaded form too', async () => {
    const em = await start();
    const { s, tid, add } = await fixture(em);
    add({ message: 'x', ts: 9, at: 1 });
    const page = await list(em, s._links.final_message?.href.replace('final_message', 'message') ?? '');
    expect(page._links?.new_messages?.href).toBe(
      `${em.url}/rest/v1/sessions/${s.id}/threads/${tid}/messages?type=message&role=assistant&gts=9`,
    );
  });
});

describe('GET …/messages errors', () => {
  const bad = [
    'limit=0',
    'limit=101',
    'limit=1.5',
    'limit=ten',
    'limit=',
    'type=bogus',
    'type=message,final_message',
    'type=',
    'role=system',
    'direction=up',
    'page=0',
    'page=-1',
    'page=1e2',
    'gts=abc',
    'gts=',
    'thread_id=not-a-uuid',
  ];
  it.each(bad)('refuses %s with 422 and a JSON error', async (q) => {
    const em = await start();
    const { s } = await fixture(em);
    const res = await call(em, 'GET', `/rest/v1/sessions/${s.id}/messages?${q}`);
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ error: expect.any(String) as string, code: 'UNPROCESSABLE_ENTITY' });
  });

  it('accepts the boundary values limit=1, limit=100 and page=1', async () => {
    const em = await start();
    const { s } = await fixture(em);
    for (const q of ['limit=1', 'limit=100', 'page=1']) {
      expect((await call(em, 'GET', `/rest/v1/sessions/${s.id}/messages?${q}`)).status).toBe(200);
    }
  });

  it('is 404 for an unknown session, and for a thread that belongs to another session', async () => {
    const em = await start();
    const a = await fixture(em);
    const b = await fixture(em);
    expect((await call(em, 'GET', `/rest/v1/sessions/${OTHER}/messages`)).status).toBe(404);
    const cross = await call(em, 'GET', `/rest/v1/sessions/${a.s.id}/threads/${b.tid}/messages`);
    expect(cross.status).toBe(404);
    expect(cross.json).toMatchObject({ code: 'NOT_FOUND' });
    const unknown = await call(em, 'GET', `/rest/v1/sessions/${a.s.id}/threads/${OTHER}/messages`);
    expect(unknown.status).toBe(404);
  });
});
