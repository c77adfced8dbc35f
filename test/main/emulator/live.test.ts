// The emulator's live dialect reproduces every row of ../shared/spec/live-service.md, over real HTTP, and
// the spec dialect keeps answering as the document says where the two differ.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { Artifact, Message, MessagePage, Session } from '../../../src/core/api/types.js';
import { LIVE_LINK_BASE } from '../../../src/emulator/dialect.js';
import { SANDBOX_NOTICE } from '../../../src/emulator/turn-player.js';
import { KEY, call, finalOf, start, until } from '../../support/api-calls.js';

const live = (o: Parameters<typeof start>[0] = {}) => start({ dialect: 'live', ...o });

async function createLive(em: Awaited<ReturnType<typeof start>>, message: string, extra: object = {}) {
  const res = await call(em, 'POST', '/rest/v1/sessions', {
    body: { agent_name: 'claude', message, ...extra },
  });
  expect(res.status).toBe(200);
  return res.json as Session;
}

async function page(em: Awaited<ReturnType<typeof start>>, path: string): Promise<MessagePage> {
  const res = await call(em, 'GET', path);
  expect(res.status, res.text).toBe(200);
  return res.json as MessagePage;
}

describe('live dialect: responses', () => {
  it('create and follow-up answer 200; spec answers 201', async () => {
    const em = await live();
    const s = await createLive(em, 'hi');
    const sent = await call(em, 'POST', `/rest/v1/sessions/${s.id}/messages`, { body: { message: 'more' } });
    expect(sent.status).toBe(200);
    const spec = await start();
    expect(
      (await call(spec, 'POST', '/rest/v1/sessions', { body: { agent_name: 'claude', message: 'x' } }))
        .status,
    ).toBe(201);
  });

  it('validation failures are 422 {error}: no agent, non-UUID ids, bad query values, comma lists', async () => {
    const em = await live();
    const noAgent = await call(em, 'POST', '/rest/v1/sessions', { body: { message: 'hi' } });
    expect(noAgent.status).toBe(422);
    expect((noAgent.json as { error: string }).error).toMatch(/agent/);
    // The body is the error alone, as the live service answers: no `code` beside it.
    expect(Object.keys(noAgent.json as object)).toEqual(['error']);
    expect((await call(em, 'GET', '/rest/v1/sessions/not-a-uuid')).status).toBe(422);
    const s = await createLive(em, 'hi');
    for (const q of [
      'limit=0',
      'page=0',
      'type=nope',
      'role=robot',
      'direction=up',
      'type=message,final_message',
    ]) {
      expect((await call(em, 'GET', `/rest/v1/sessions/${s.id}/messages?${q}`)).status, q).toBe(422);
    }
    // The spec: 400 VALIDATION for the body, 404 for a path id that is no UUID.
    const spec = await start();
    expect((await call(spec, 'POST', '/rest/v1/sessions', { body: { message: 'hi' } })).status).toBe(400);
    expect((await call(spec, 'GET', '/rest/v1/sessions/not-a-uuid')).status).toBe(404);
  });

  it('auth: a missing or malformed header is 401, a wrong key 403', async () => {
    const em = await live();
    expect((await call(em, 'GET', '/rest/v1/sessions', { key: null })).status).toBe(401);
    expect(
      (await call(em, 'GET', '/rest/v1/sessions', { key: null, headers: { authorization: 'Bearer x' } }))
        .status,
    ).toBe(401);
    expect((await call(em, 'GET', '/rest/v1/sessions', { key: 'wrong-key' })).status).toBe(403);
    // The spec emulator: a wrong key is 401 like a missing one.
    const spec = await start();
    expect((await call(spec, 'GET', '/rest/v1/sessions', { key: 'wrong-key' })).status).toBe(401);
  });

  it('a 429 carries Retry-After in seconds; the spec emulator sends none', async () => {
    const em = await live({ rateLimit: { limit: 2, windowMs: 5_000 } });
    const codes: number[] = [];
    let retryAfter: unknown;
    for (let i = 0; i < 3; i++) {
      const res = await call(em, 'GET', `/rest/v1/sessions/${crypto.randomUUID()}`);
      codes.push(res.status);
      if (res.status === 429) retryAfter = res.headers['retry-after'];
    }
    expect(codes).toEqual([404, 404, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(5);
    const spec = await start({ rateLimit: { limit: 1, windowMs: 5_000 } });
    await call(spec, 'GET', `/rest/v1/sessions/${crypto.randomUUID()}`);
    const limited = await call(spec, 'GET', `/rest/v1/sessions/${crypto.randomUUID()}`);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeUndefined();
  });

  it('sessions: PRs as {url, status}, plan_artifact_ids, session_group_id, the workspace in the dashboard address, links on another host', async () => {
    const em = await live();
    const created = await createLive(em, '[[pr:https://github.com/o/r/pull/7]] [[plan:%23%20Plan]] go');
    expect(
      created._links.final_message?.href.startsWith(
        `${LIVE_LINK_BASE}/rest/v1/sessions/${created.id}/threads/`,
      ),
    ).toBe(true);
    expect(created.session_html_url).toBe(`https://blocks.team/app/dev/sessions/${created.id}`);
    await finalOf(em, created.id, created.thread_id ?? '');
    const s = (await call(em, 'GET', `/rest/v1/sessions/${created.id}`)).json as Session;
    expect(s.pull_requests).toEqual([{ url: 'https://github.com/o/r/pull/7', status: 'open' }]);
    expect(s.plan_artifact_ids).toHaveLength(1);
    expect(s.session_group_id).toBeNull();
    // The spec dialect: PR strings, none of the extra fields.
    const spec = await start();
    const r = await call(spec, 'POST', '/rest/v1/sessions', {
      body: { agent_name: 'claude', message: '[[pr:https://x/pull/1]] go' },
    });
    const specSession = r.json as Session;
    await finalOf(spec, specSession.id, specSession.thread_id ?? '');
    const got = (await call(spec, 'GET', `/rest/v1/sessions/${specSession.id}`)).json as Session;
    expect(got.pull_requests).toEqual(['https://x/pull/1']);
    expect('plan_artifact_ids' in got).toBe(false);
  });

  it('takes agent_name sisyphus; the spec emulator does not', async () => {
    const em = await live();
    expect(
      (await call(em, 'POST', '/rest/v1/sessions', { body: { agent_name: 'sisyphus', message: 'x' } }))
        .status,
    ).toBe(200);
    const spec = await start();
    expect(
      (await call(spec, 'POST', '/rest/v1/sessions', { body: { agent_name: 'sisyphus', message: 'x' } }))
        .status,
    ).toBe(400);
  });
});

describe('live dialect: message lists', () => {
  it('orders by ts ascending when direction is omitted; self drops the query; new_messages carries gts alone', async () => {
    const em = await live();
    const s = await createLive(em, '[[steps:3]] go');
    await finalOf(em, s.id, s.thread_id ?? '');
    const p = await page(em, `/rest/v1/sessions/${s.id}/messages?type=message&limit=50`);
    const ts = p.items.map((m) => m.ts ?? 0);
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    expect(p._links?.self?.href).toBe(`${LIVE_LINK_BASE}/rest/v1/sessions/${s.id}/messages`);
    expect(p._links?.new_messages?.href).toMatch(
      new RegExp(`^${LIVE_LINK_BASE}/rest/v1/sessions/${s.id}/messages\\?gts=[\\d.]+$`),
    );
    // ts is fractional epoch seconds.
    expect(ts.some((t) => !Number.isInteger(t))).toBe(true);
  });

  it('role repeats on newer deployments; older ones answer 422', async () => {
    const em = await live();
    const s = await createLive(em, 'go');
    await finalOf(em, s.id, s.thread_id ?? '');
    const both = await page(em, `/rest/v1/sessions/${s.id}/messages?role=user&role=assistant&direction=asc`);
    expect(new Set(both.items.map((m) => m.role))).toEqual(new Set(['user', 'assistant']));
    const old = await live({ repeatedParams: 'reject' });
    const s2 = await createLive(old, 'go');
    expect(
      (await call(old, 'GET', `/rest/v1/sessions/${s2.id}/messages?role=user&role=assistant`)).status,
    ).toBe(422);
    expect((await call(old, 'GET', `/rest/v1/sessions/${s2.id}/messages?role=user`)).status).toBe(200);
  });

  it('an unknown thread_id filter is 200 with no items; type[]= is ignored', async () => {
    const em = await live();
    const s = await createLive(em, 'go');
    await finalOf(em, s.id, s.thread_id ?? '');
    const none = await page(em, `/rest/v1/sessions/${s.id}/messages?thread_id=${crypto.randomUUID()}`);
    expect(none.items).toEqual([]);
    const bracket = await page(em, `/rest/v1/sessions/${s.id}/messages?type[]=tool_call`);
    expect(bracket.items.every((m) => m.type !== 'tool_call')).toBe(true);
  });
});

describe('live dialect: what a conversation looks like', () => {
  it('the last message of a finished thread repeats the final; a notice follows outside the thread; tool calls are {__name__, input}', async () => {
    const em = await live();
    const s = await createLive(em, '[[steps:2]] [[reply:All%20done.]] go');
    await finalOf(em, s.id, s.thread_id ?? '');
    const all = await until(() => {
      const stored = em.messages(s.id);
      return stored.some((m) => m.chat_thread_id === null) ? stored : undefined;
    });
    const thread = all.filter((m) => m.chat_thread_id === s.thread_id && m.role === 'assistant');
    const messages = thread.filter((m) => m.type === 'message');
    expect(messages.at(-1)?.message).toBe('All done.');
    expect(thread.at(-1)?.type).toBe('final_message');
    expect(thread.filter((m) => m.role === 'assistant' && m.type === 'final_message')[0]?.message).toBe(
      'All done.',
    );
    // Each thread has exactly one user item, of type message.
    expect(
      all.filter((m) => m.chat_thread_id === s.thread_id && m.role === 'user').map((m) => m.type),
    ).toEqual(['message']);
    const notice = all.at(-1) as Message;
    expect(notice).toMatchObject({ chat_thread_id: null, message: SANDBOX_NOTICE });
    const tool = thread.find((m) => m.type === 'tool_call');
    expect(JSON.parse(tool?.message ?? '{}')).toEqual({
      __name__: expect.any(String) as string,
      input: expect.any(String) as string,
    });
  });
});

describe('live dialect: artifacts', () => {
  it('answers an artifact with a presigned link on another host, fetched without the key', async () => {
    const em = await live();
    const s = await createLive(em, '[[plan:%23%20The%20plan%0A-%20step]] go');
    await finalOf(em, s.id, s.thread_id ?? '');
    const session = (await call(em, 'GET', `/rest/v1/sessions/${s.id}`)).json as Session;
    const id = session.plan_artifact_ids?.[0] ?? '';
    const res = await call(em, 'GET', `/rest/v1/sessions/${s.id}/artifacts/${id}`);
    expect(res.status).toBe(200);
    const a = res.json as Artifact;
    expect(a).toMatchObject({ id, kind: 'plan', file_name: 'plan.md', mime_type: 'text/markdown' });
    expect(typeof a.plan_id).toBe('string');
    expect(new URL(a.url).origin).toBe(em.artifactsUrl);
    expect(new URL(a.url).origin).not.toBe(new URL(em.url).origin);
    const download = await request(a.url);
    expect(download.statusCode).toBe(200);
    expect(await download.body.text()).toBe('# The plan\n- step');
    // A request that carries Authorization is refused, as presigned storage does.
    const withKey = await request(a.url, { headers: { authorization: `ApiKey ${KEY}` } });
    expect(withKey.statusCode).toBe(400);
    await withKey.body.dump();
    expect(em.artifactRequests().map((r) => r.authorization)).toEqual([false, true]);
    // Not attached to this session: 404.
    expect((await call(em, 'GET', `/rest/v1/sessions/${s.id}/artifacts/${crypto.randomUUID()}`)).status).toBe(
      404,
    );
  });

  it('a plan iterated in a later turn: plan_artifact_ids holds its latest iteration', async () => {
    const em = await live();
    const s = await createLive(em, '[[plan:v1]] go');
    await finalOf(em, s.id, s.thread_id ?? '');
    const sent = await call(em, 'POST', `/rest/v1/sessions/${s.id}/messages`, {
      body: { message: '[[plan:v2]] again' },
    });
    await finalOf(em, s.id, (sent.json as Message).chat_thread_id ?? '');
    const session = (await call(em, 'GET', `/rest/v1/sessions/${s.id}`)).json as Session;
    expect(session.plan_artifact_ids).toHaveLength(1);
    const a = (await call(em, 'GET', `/rest/v1/sessions/${s.id}/artifacts/${session.plan_artifact_ids?.[0]}`))
      .json as Artifact;
    expect(await (await request(a.url)).body.text()).toBe('v2');
  });

  it('an expired link is 403; the spec dialect has no artifact endpoint', async () => {
    const em = await live({ artifactTtlMs: -1000 });
    const s = await createLive(em, 'go');
    const added = em.addArtifact(s.id, { kind: 'file', content: 'data', fileName: 'out.txt' });
    const a = (await call(em, 'GET', `/rest/v1/sessions/${s.id}/artifacts/${added.id}`)).json as Artifact;
    const expired = await request(a.url);
    expect(expired.statusCode).toBe(403);
    expect(await expired.body.text()).toMatch(/expired/);
    const spec = await start();
    const r = await call(spec, 'POST', '/rest/v1/sessions', { body: { agent_name: 'claude', message: 'x' } });
    const sid = (r.json as Session).id;
    const file = spec.addArtifact(sid, { kind: 'file', content: 'x' });
    expect((await call(spec, 'GET', `/rest/v1/sessions/${sid}/artifacts/${file.id}`)).status).toBe(404);
  });
});
