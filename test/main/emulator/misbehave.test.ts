// The emulator as strict as the document, and as bad as a server can be on purpose: a repeated parameter
// the document types as one string is read four ways, and each misbehaviour shows on the wire.
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Message, MessagePage, Session } from '../../../src/core/api/types.js';
import { BAD_IDS, type RepeatedParams, type RunningEmulator } from '../../../src/emulator/index.js';
import { call, list, start } from '../../support/api-calls.js';
import { KEY } from '../../support/key.js';

/** A session with a prompt, an assistant message and a final on its first thread, stored directly. */
async function conversation(em: RunningEmulator) {
  // Either dialect's status (201 or 200).
  const res = await call(em, 'POST', '/rest/v1/sessions', {
    body: { message: 'fixture [[orphan]]', agent_name: 'claude' },
  });
  const s = res.json as Session;
  const tid = s.thread_id ?? '';
  const add = (role: 'user' | 'assistant', type: 'message' | 'final_message', message: string) =>
    em.addMessage(s.id, { chat_thread_id: tid, role, type, message });
  add('user', 'message', 'ask');
  add('assistant', 'message', 'step');
  add('assistant', 'final_message', 'done');
  return { s, tid };
}

const roles = (items: Message[]) => [...new Set(items.map((m) => m.role))].sort();

describe.each(['spec', 'live'] as const)('a repeated single-valued parameter (%s dialect)', (dialect) => {
  const cases: [RepeatedParams, number, string[]][] = [
    ['first', 200, ['user']],
    ['last', 200, ['assistant']],
    ['all', 200, ['assistant', 'user']],
    ['reject', 422, []],
  ];
  it.each(cases)('%s: role=user&role=assistant → %i, roles %j', async (mode, status, want) => {
    const em = await start({ dialect, repeatedParams: mode });
    const { s } = await conversation(em);
    const res = await call(
      em,
      'GET',
      `/rest/v1/sessions/${s.id}/messages?role=user&role=assistant&direction=asc`,
    );
    expect(res.status).toBe(status);
    if (status === 200) expect(roles((res.json as MessagePage).items)).toEqual(want);
  });

  it('first and last apply to every single-valued parameter; all refuses the others', async () => {
    const em = await start({ dialect, repeatedParams: 'first' });
    const { s } = await conversation(em);
    const path = `/rest/v1/sessions/${s.id}/messages?limit=1&limit=2&direction=asc`;
    expect((await list(em, path)).items).toHaveLength(1);
    em.setRepeatedParams('last');
    expect((await list(em, path)).items).toHaveLength(2);
    em.setRepeatedParams('all');
    expect((await call(em, 'GET', path)).status).toBe(422);
  });

  it(`defaults to ${dialect === 'spec' ? 'first' : 'all'}`, async () => {
    const em = await start({ dialect });
    const { s } = await conversation(em);
    const page = await list(em, `/rest/v1/sessions/${s.id}/messages?role=user&role=assistant`);
    expect(roles(page.items)).toEqual(dialect === 'spec' ? ['user'] : ['assistant', 'user']);
  });
});

describe('misbehaviours', () => {
  it('ignoreThreadFilter: a thread list carries every thread of the session', async () => {
    const em = await start();
    const { s, tid } = await conversation(em);
    em.addMessage(s.id, {
      chat_thread_id: '11111111-1111-4111-8111-111111111111',
      role: 'assistant',
      type: 'final_message',
      message: 'other',
    });
    const path = `/rest/v1/sessions/${s.id}/threads/${tid}/messages?type=final_message`;
    expect((await list(em, path)).items.map((m) => m.message)).toEqual(['done']);
    em.setMisbehaviour({ ignoreThreadFilter: true });
    expect((await list(em, path)).items.map((m) => m.message).sort()).toEqual(['done', 'other']);
  });

  it("ignoreSessionFilter: a session's list carries the workspace's other sessions", async () => {
    const em = await start();
    const a = await conversation(em);
    const b = await conversation(em);
    em.setMisbehaviour({ ignoreSessionFilter: true });
    const page = await list(em, `/rest/v1/sessions/${a.s.id}/messages`);
    expect(new Set(page.items.map((m) => m.chat_id))).toEqual(new Set([a.s.id, b.s.id]));
  });

  it('endlessBody: 200, then a JSON string without end; the emulator stays responsive', async () => {
    const em = await start({ misbehave: { endlessBody: 'session' } });
    const { s } = await conversation(em);
    const res = await request(`${em.url}/rest/v1/sessions/${s.id}`, {
      headers: { authorization: `ApiKey ${KEY}` },
    });
    expect(res.statusCode).toBe(200);
    let read = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > 10 * 1024 * 1024) break;
    }
    expect(read).toBeGreaterThan(10 * 1024 * 1024);
    // A list is not aimed at: it answers whole, at once.
    expect((await list(em, `/rest/v1/sessions/${s.id}/messages`)).items.length).toBeGreaterThan(0);
  });

  it('trickle: headers at once, the body a byte at a time (only the first request when counted)', async () => {
    const em = await start({ misbehave: { trickle: { everyMs: 50, requests: 1, route: 'session' } } });
    const { s } = await conversation(em);
    const res = await request(`${em.url}/rest/v1/sessions/${s.id}`, {
      headers: { authorization: `ApiKey ${KEY}` },
    });
    expect(res.statusCode).toBe(200);
    const whole = Number(res.headers['content-length']);
    let read = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      read += chunk.length;
      expect(chunk.length).toBe(1);
      if (read >= 3) break;
    }
    expect(whole).toBeGreaterThan(100);
    // The second request is not counted in: whole.
    const again = await call(em, 'GET', `/rest/v1/sessions/${s.id}`);
    expect((again.json as { id: string }).id).toBe(s.id);
  });

  it('endlessPages: a million pages, each page 1 again', async () => {
    const em = await start({ misbehave: { endlessPages: true } });
    const { s } = await conversation(em);
    const p1 = await list(em, `/rest/v1/sessions/${s.id}/messages?page=1&limit=1`);
    const p5 = await list(em, `/rest/v1/sessions/${s.id}/messages?page=5&limit=1`);
    expect(p1.meta.total_pages).toBe(1_000_000);
    expect(p5.items.map((m) => m.id)).toEqual(p1.items.map((m) => m.id));
  });

  it('badIds: hostile text where ids belong', async () => {
    const em = await start();
    const { s } = await conversation(em);
    em.setMisbehaviour({ badIds: 'session' });
    expect(((await call(em, 'GET', `/rest/v1/sessions/${s.id}`)).json as { id: string }).id).toBe(
      BAD_IDS.session,
    );
    em.setMisbehaviour({ badIds: 'message' });
    const page = await list(em, `/rest/v1/sessions/${s.id}/messages`);
    expect(page.items.every((m) => m.id === BAD_IDS.message)).toBe(true);
    em.setMisbehaviour({ badIds: 'thread' });
    const sent = await call(em, 'POST', `/rest/v1/sessions/${s.id}/messages`, {
      body: { message: 'again [[never]]' },
    });
    expect((sent.json as { chat_thread_id: string }).chat_thread_id).toBe(BAD_IDS.thread);
  });

  it('deepJson: Get session nests as deep as asked', async () => {
    const em = await start({ misbehave: { deepJson: 5000 } });
    const { s } = await conversation(em);
    const res = await call(em, 'GET', `/rest/v1/sessions/${s.id}`);
    expect(res.text.startsWith('['.repeat(5000))).toBe(true);
  });
});
