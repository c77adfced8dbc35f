// Create session and Get session: validation, response shape, links, scripted first turn.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../src/core/api/types.js';
import { call, create, finalOf, start } from '../../support/api-calls.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const AGENT_ID = '3f2a9c1e-7b4d-4e8a-9c2b-1d5e6f7a8b9c';

describe('POST /rest/v1/sessions', () => {
  it('answers a Session with the first thread and absolute thread / final_message links', async () => {
    const em = await start();
    const s = await create(em, 'Fix the failing test in the parser please');
    expect(s.id).toMatch(UUID);
    expect(s.thread_id).toMatch(UUID);
    expect(s.title).toBe('Fix the failing test in the parser please');
    expect(s).toMatchObject({ pull_requests: [], source_url: null, is_archived: false, is_private: false });
    expect(s.session_html_url).toBe(`${em.url}/app/sessions/${s.id}`);
    const base = `${em.url}/rest/v1/sessions/${s.id}`;
    expect(s._links).toEqual({
      self: { href: base },
      messages: { href: `${base}/messages` },
      thread: { href: `${base}/threads/${s.thread_id}/messages` },
      final_message: { href: `${base}/threads/${s.thread_id}/messages?type=final_message&role=assistant` },
    });
    expect(Date.parse(s.created_at)).not.toBeNaN();
  });

  it('stores the user message (ts null) and runs a turn: message, tool_call, then a final naming the agent', async () => {
    const em = await start();
    const s = await create(em, 'Add a --verbose flag', { agent_name: 'codex' });
    const final = await finalOf(em, s.id, s.thread_id ?? '');
    const all = em.messages(s.id);
    expect(all.map((m) => [m.role, m.type])).toEqual([
      ['user', 'message'],
      ['assistant', 'message'],
      ['assistant', 'tool_call'],
      ['assistant', 'final_message'],
    ]);
    expect(all[0]).toMatchObject({ message: 'Add a --verbose flag', ts: null, chat_id: s.id });
    expect(final.message).toContain('codex');
    expect(final.message).toContain('Add a --verbose flag');
    expect(Number.isInteger(final.ts)).toBe(true);
    // One task for the whole turn, on the first thread.
    expect(new Set(all.map((m) => m.task_id)).size).toBe(1);
    expect(new Set(all.map((m) => m.chat_thread_id))).toEqual(new Set([s.thread_id]));
  });

  it('builds hrefs from the Host the request came in on', async () => {
    const em = await start();
    const res = await call(em, 'POST', '/rest/v1/sessions', {
      body: { agent_name: 'claude', message: 'hi' },
      headers: { host: `localhost:${em.port}` },
    });
    const s = res.json as Session;
    expect(s._links.self.href).toBe(`http://localhost:${em.port}/rest/v1/sessions/${s.id}`);
    expect(s.session_html_url).toBe(`http://localhost:${em.port}/app/sessions/${s.id}`);
  });

  it('uses appUrl for session_html_url when given', async () => {
    const em = await start({ appUrl: 'https://app.example.test/' });
    const s = await create(em, 'hi');
    expect(s.session_html_url).toBe(`https://app.example.test/app/sessions/${s.id}`);
  });

  it('accepts agent_id or a profile instead of agent_name, and is_private / artifact_ids', async () => {
    const em = await start();
    const byId = await call(em, 'POST', '/rest/v1/sessions', { body: { agent_id: AGENT_ID, message: 'x' } });
    expect(byId.status).toBe(201);
    const byProfile = await call(em, 'POST', '/rest/v1/sessions', {
      body: { profile: { id: AGENT_ID, config_values: { a: 1 }, mcp_servers: [] }, message: 'x' },
    });
    expect(byProfile.status).toBe(201);
    const priv = await create(em, 'x', { is_private: true, artifact_ids: [AGENT_ID] });
    expect(priv.is_private).toBe(true);
  });

  const invalid: [string, object][] = [
    ['none of agent_id / agent_name / profile', { message: 'x' }],
    ['agent_name and agent_id', { agent_name: 'claude', agent_id: AGENT_ID, message: 'x' }],
    ['agent_name and profile', { agent_name: 'claude', profile: {}, message: 'x' }],
    ['all three', { agent_name: 'claude', agent_id: AGENT_ID, profile: {}, message: 'x' }],
    ['an unknown agent name', { agent_name: 'gpt', message: 'x' }],
    ['an agent name in the wrong case', { agent_name: 'Claude', message: 'x' }],
    ['a non-uuid agent_id', { agent_id: 'abc', message: 'x' }],
    ['a profile that is not an object', { profile: 'p', message: 'x' }],
    ['a missing message', { agent_name: 'claude' }],
    ['an empty message', { agent_name: 'claude', message: '' }],
    ['a blank message', { agent_name: 'claude', message: '  \n ' }],
    ['a message that is not a string', { agent_name: 'claude', message: 5 }],
    ['a non-boolean is_private', { agent_name: 'claude', message: 'x', is_private: 'yes' }],
    ['non-uuid artifact_ids', { agent_name: 'claude', message: 'x', artifact_ids: ['nope'] }],
  ];
  it.each(invalid)('refuses %s with 400 VALIDATION and creates nothing', async (_name, body) => {
    const em = await start();
    const res = await call(em, 'POST', '/rest/v1/sessions', { body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'VALIDATION', error: expect.any(String) as string });
    expect(em.stats().sessionsCreated).toBe(0);
  });
});

describe('GET /rest/v1/sessions/{id}', () => {
  it('answers the Session with thread_id and the thread links null', async () => {
    const em = await start();
    const s = await create(em, 'hello there');
    const res = await call(em, 'GET', `/rest/v1/sessions/${s.id}`);
    expect(res.status).toBe(200);
    const got = res.json as Session;
    expect(got.thread_id).toBeNull();
    expect(got._links.thread).toBeNull();
    expect(got._links.final_message).toBeNull();
    expect(got._links.messages.href).toBe(`${em.url}/rest/v1/sessions/${s.id}/messages`);
    expect(got).toMatchObject({ id: s.id, title: s.title, session_html_url: s.session_html_url });
  });

  it('is 404 NOT_FOUND for an unknown session', async () => {
    const em = await start();
    const res = await call(em, 'GET', '/rest/v1/sessions/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: 'NOT_FOUND' });
  });
});
