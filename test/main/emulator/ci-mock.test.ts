// The emulator's ci-mock dialect answers as the mock Blocks' CI runs against (scripts/mock-api.mjs in
// BlocksOrg/blocks-ci-sessions), over real HTTP: opaque message and task ids, a final reply without
// chat_id, _links on another host, one 429 with Retry-After: 1, `{"error": …}` bodies, UUID session ids.
import { describe, expect, it } from 'vitest';
import type { MessagePage, SentMessage, Session } from '../../../src/core/api/types.js';
import { CI_MOCK_LINK_BASE } from '../../../src/emulator/dialect.js';
import { call, start } from '../../support/api-calls.js';
import { UUID } from '../../support/fixture.js';

const mock = () => start({ dialect: 'ci-mock', turnMsPerRequest: 0 });

describe('ci-mock dialect', () => {
  it("create answers 200 with UUID ids and _links on the mock's other host", async () => {
    const em = await mock();
    const res = await call(em, 'POST', '/rest/v1/sessions', {
      body: { agent_name: 'claude', message: 'Review the PR' },
    });
    expect(res.status).toBe(200);
    const s = res.json as Session;
    expect(s.id).toMatch(UUID);
    expect(s.thread_id).toMatch(UUID);
    expect(s._links.final_message?.href).toBe(
      `${CI_MOCK_LINK_BASE}/rest/v1/sessions/${s.id}/threads/${s.thread_id}/messages?type=final_message&role=assistant`,
    );
    expect(s._links.self.href.startsWith(CI_MOCK_LINK_BASE)).toBe(true);
    expect(s.session_html_url).toBe(`https://blocks.team/app/dev/sessions/${s.id}`);
  });

  it('message ids m0, m1, …, task ids task-1, …, and a listed final without chat_id or task_id', async () => {
    const em = await mock();
    const s = (
      await call(em, 'POST', '/rest/v1/sessions', {
        body: { agent_name: 'claude', message: '[[steps:0]] Review the PR' },
      })
    ).json as Session;
    em.endTurns(s.id);
    const path = `/rest/v1/sessions/${s.id}/messages?role=user&role=assistant&direction=asc`;
    const first = await call(em, 'GET', path);
    expect(first.status).toBe(429);
    expect(first.headers['retry-after']).toBe('1');
    expect(first.json).toEqual({ error: 'Rate limit exceeded' });
    const listed = (await call(em, 'GET', path)).json as MessagePage;
    const [user, final] = listed.items;
    expect(user).toMatchObject({ id: 'm0', chat_id: s.id, task_id: 'task-1', role: 'user' });
    expect(final).toMatchObject({ id: 'm1', chat_thread_id: s.thread_id, type: 'final_message' });
    expect(final).not.toHaveProperty('chat_id');
    expect(final).not.toHaveProperty('task_id');
    // The one 429 is the first list only; the stored message keeps its session (test hooks see it whole).
    expect((await call(em, 'GET', path)).status).toBe(200);
    expect(em.messages(s.id).at(-1)?.chat_id).toBe(s.id);

    const sent = await call(em, 'POST', `/rest/v1/sessions/${s.id}/messages`, { body: { message: 'more' } });
    expect(sent.status).toBe(200);
    const m = sent.json as SentMessage;
    expect(m).toMatchObject({ id: 'm2', chat_id: s.id, task_id: 'task-2' });
    expect(m.chat_thread_id).toMatch(UUID);
    expect(m._links.thread?.href.startsWith(CI_MOCK_LINK_BASE)).toBe(true);
  });

  it('a refused body is 422 {"error": …} with no code, and a path id that is no UUID 404', async () => {
    const em = await mock();
    const noAgent = await call(em, 'POST', '/rest/v1/sessions', { body: { message: 'hi' } });
    expect(noAgent.status).toBe(422);
    expect(Object.keys(noAgent.json as object)).toEqual(['error']);
    expect((noAgent.json as { error: string }).error).toMatch(/agent/);
    const bad = await call(em, 'GET', '/rest/v1/sessions/m1');
    expect(bad.status).toBe(404);
    expect(Object.keys(bad.json as object)).toEqual(['error']);
  });
});
