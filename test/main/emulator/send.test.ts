// Send message (follow-up): new thread and task, interruption of the turn in progress, and its errors.
import { describe, expect, it } from 'vitest';
import type { SentMessage } from '../../../src/core/api/types.js';
import { call, create, finalOf, ofThread, start, until } from '../../support/api-calls.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function send(em: Awaited<ReturnType<typeof start>>, sid: string, message: string) {
  return call(em, 'POST', `/rest/v1/sessions/${sid}/messages`, { body: { message } });
}

describe('POST /rest/v1/sessions/{id}/messages', () => {
  it('posts the user message on a new thread with a new task, and answers it with links', async () => {
    const em = await start();
    const s = await create(em, 'first');
    await finalOf(em, s.id, s.thread_id ?? '');
    const res = await send(em, s.id, 'second');
    expect(res.status).toBe(201);
    const m = res.json as SentMessage;
    expect(m).toMatchObject({ role: 'user', type: 'message', message: 'second', ts: null, chat_id: s.id });
    expect(m.chat_thread_id).toMatch(UUID);
    expect(m.chat_thread_id).not.toBe(s.thread_id);
    const firstTask = em.messages(s.id)[0]?.task_id;
    expect(m.task_id).toMatch(UUID);
    expect(m.task_id).not.toBe(firstTask);
    const base = `${em.url}/rest/v1/sessions/${s.id}`;
    expect(m._links).toEqual({
      self: { href: `${base}/messages` },
      thread: { href: `${base}/threads/${m.chat_thread_id}/messages` },
      final_message: {
        href: `${base}/threads/${m.chat_thread_id}/messages?type=final_message&role=assistant`,
      },
    });
    const final = await finalOf(em, s.id, m.chat_thread_id ?? '');
    expect(final.task_id).toBe(m.task_id);
    expect(em.stats().followUps).toBe(1);
  });

  it('interrupts the turn in progress: the old thread never gets its final message', async () => {
    const em = await start({ turns: 'held', turnMsPerRequest: 0 });
    const s = await create(em, 'slow one [[turn:3000]] [[steps:4]]');
    em.advanceTurns(1000); // the first turn is under way: one intermediate stored
    expect(ofThread(em, s.id, s.thread_id ?? '')).toHaveLength(1);
    const res = await send(em, s.id, 'quick one [[turn:100]] [[steps:0]]');
    const m = res.json as SentMessage;
    em.advanceTurns(24 * 3_600_000); // past every moment the first turn would have stored anything
    expect(ofThread(em, s.id, m.chat_thread_id ?? '').map((x) => x.type)).toEqual(['final_message']);
    // Neither its final nor its pending intermediate messages were stored.
    expect(ofThread(em, s.id, s.thread_id ?? '')).toHaveLength(1);
    expect(em.heldTurnEvents()).toBe(0);
  });

  it('turnMsPerRequest: each answered request moves held turns on, after its answer; endTurns(id) ends one', async () => {
    const em = await start({ turns: 'held', turnMsPerRequest: 1000 });
    const a = await create(em, 'first [[think:0]] [[turn:3000]] [[steps:2]]');
    expect(ofThread(em, a.id, a.thread_id ?? '')).toHaveLength(1); // its create moved it on 1 s: one step
    const b = await create(em, 'second [[turn:60000]]'); // and b's create 1 s more: two
    const read = async (id: string) =>
      (
        (await call(em, 'GET', `/rest/v1/sessions/${id}/messages?role=assistant&direction=asc`)).json as {
          items: { type: string }[];
        }
      ).items.map((x) => x.type);
    expect(ofThread(em, a.id, a.thread_id ?? '')).toHaveLength(2);
    // A list (tool calls left out by default) is answered before it moves the turn on to its final.
    expect(await read(a.id)).toEqual(['message']);
    expect(await read(a.id)).toEqual(['message', 'final_message']);
    // What requests move on is stamped when it landed, in real time: not the 1 s a request moves turns on
    // (the store keeps stamps strictly increasing, so messages of one millisecond run a few ahead).
    expect(Date.parse(ofThread(em, a.id, a.thread_id ?? '').at(-1)!.created_at)).toBeLessThan(
      Date.now() + 100,
    );
    // b has moved on 2 s of its 60: endTurns(id) ends it alone.
    expect(ofThread(em, b.id, b.thread_id ?? '')).toHaveLength(0);
    expect(em.endTurns(b.id)).toBe(3);
    expect(ofThread(em, b.id, b.thread_id ?? '').at(-1)?.type).toBe('final_message');
  });

  it('is 400 BAD_REQUEST for a session with no messages ([[orphan]])', async () => {
    const em = await start();
    const s = await create(em, 'lost on the way [[orphan]]');
    expect(em.messages(s.id)).toEqual([]);
    const res = await send(em, s.id, 'anyone there?');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'BAD_REQUEST' });
    expect(em.stats().followUps).toBe(0);
  });

  it('works again once the orphan session has a message (added through the test hook)', async () => {
    const em = await start();
    const s = await create(em, '[[orphan]]');
    em.addMessage(s.id, {
      chat_thread_id: s.thread_id ?? '',
      role: 'user',
      type: 'message',
      message: 'late',
    });
    expect((await send(em, s.id, 'now')).status).toBe(201);
  });

  it('is 404 NOT_FOUND for an unknown session, and 400 VALIDATION for a missing or empty message', async () => {
    const em = await start();
    const missing = await send(em, '00000000-0000-4000-8000-000000000000', 'x');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 'NOT_FOUND' });
    const s = await create(em, 'x');
    for (const body of [{}, { message: '' }, { message: 3 }, { message: 'x', artifact_ids: 'a' }]) {
      const res = await call(em, 'POST', `/rest/v1/sessions/${s.id}/messages`, { body });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'VALIDATION' });
    }
  });

  it('keeps every thread of the session listed on the unthreaded form', async () => {
    const em = await start();
    const s = await create(em, 'a');
    await finalOf(em, s.id, s.thread_id ?? '');
    const m = (await send(em, s.id, 'b')).json as SentMessage;
    await finalOf(em, s.id, m.chat_thread_id ?? '');
    const finals = await until(async () => {
      const r = await call(em, 'GET', `/rest/v1/sessions/${s.id}/messages?type=final_message`);
      const items = (r.json as { items: { chat_thread_id: string }[] }).items;
      return items.length === 2 ? items : undefined;
    });
    expect(finals.map((x) => x.chat_thread_id)).toEqual([m.chat_thread_id, s.thread_id]);
  });
});
