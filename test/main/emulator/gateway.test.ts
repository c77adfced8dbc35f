// The gateway: API keys, workspaces, and the per-key rate limit.
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/emulator/gateway.js';
import { call, create, start } from '../../support/api-calls.js';

const keys = [
  { key: 'alice-key', workspace: 'acme' },
  { key: 'bob-key', workspace: 'acme' },
  { key: 'eve-key', workspace: 'evil' },
  { key: 'banned-key', workspace: 'acme', forbidden: true },
];

describe('authentication', () => {
  it('accepts the documented dev key by default', async () => {
    const em = await start();
    expect(em.keys).toEqual([{ key: 'agents-dev-key', workspace: 'dev' }]);
    expect((await call(em, 'GET', '/rest/v1/sessions/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
  });

  const unauthorized: [string, Record<string, string> | null][] = [
    ['no Authorization header', null],
    ['an unknown key', { authorization: 'ApiKey nope' }],
    ['a Bearer token', { authorization: 'Bearer agents-dev-key' }],
    ['the scheme with no key', { authorization: 'ApiKey ' }],
  ];
  it.each(unauthorized)('answers %s with 401 and an HTML body, not the JSON error shape', async (_n, h) => {
    const em = await start();
    const res = await call(em, 'POST', '/rest/v1/sessions', {
      key: null,
      headers: h ?? {},
      body: { agent_name: 'claude', message: 'x' },
    });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.json).toBeUndefined();
    expect(res.text).not.toContain('agents-dev-key');
    expect(em.stats().sessionsCreated).toBe(0);
  });

  it('answers a forbidden key with 403 and an HTML body, before any route is looked at', async () => {
    const em = await start({ keys });
    for (const path of ['/rest/v1/sessions', '/nowhere']) {
      const res = await call(em, 'GET', path, { key: 'banned-key' });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.json).toBeUndefined();
      expect(res.text).not.toContain('banned-key');
    }
  });

  it('takes the scheme name in any case', async () => {
    const em = await start();
    const res = await call(em, 'GET', '/rest/v1/sessions/00000000-0000-4000-8000-000000000000', {
      key: null,
      headers: { authorization: 'apikey agents-dev-key' },
    });
    expect(res.status).toBe(404);
  });
});

describe('workspaces', () => {
  it('shares sessions between keys of one workspace', async () => {
    const em = await start({ keys });
    const s = await create(em, 'shared', {}, 'alice-key');
    expect((await call(em, 'GET', `/rest/v1/sessions/${s.id}`, { key: 'bob-key' })).status).toBe(200);
    const sent = await call(em, 'POST', `/rest/v1/sessions/${s.id}/messages`, {
      key: 'bob-key',
      body: { message: 'me too' },
    });
    expect(sent.status).toBe(201);
  });

  it("reports another workspace's session and thread as 404 NOT_FOUND on every endpoint", async () => {
    const em = await start({ keys });
    const s = await create(em, 'private to acme', {}, 'alice-key');
    const base = `/rest/v1/sessions/${s.id}`;
    const attempts = [
      call(em, 'GET', base, { key: 'eve-key' }),
      call(em, 'GET', `${base}/messages`, { key: 'eve-key' }),
      call(em, 'GET', `${base}/threads/${s.thread_id}/messages`, { key: 'eve-key' }),
      call(em, 'POST', `${base}/messages`, { key: 'eve-key', body: { message: 'let me in' } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(em.messages(s.id).filter((m) => m.role === 'user')).toHaveLength(1);
  });
});

describe('rate limit', () => {
  it('answers 429 once a key spends its window, counting refused requests too; other keys are unaffected', async () => {
    const em = await start({ keys, rateLimit: { limit: 3, windowMs: 60_000 } });
    const path = '/rest/v1/sessions/00000000-0000-4000-8000-000000000000';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await call(em, 'GET', path, { key: 'alice-key' })).status);
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    const limited = await call(em, 'GET', path, { key: 'alice-key' });
    expect(limited.json).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.headers['retry-after']).toBeUndefined();
    // Same workspace, different key: its own budget.
    expect((await call(em, 'GET', path, { key: 'bob-key' })).status).toBe(404);
    expect(em.stats().rejected429).toBe(3);
  });

  // The window's moments are given, not waited for: the limiter takes the time of each request.
  it('slides: requests leave the window as it moves on', () => {
    const limiter = new RateLimiter(2, 150);
    expect([limiter.take('k', 0), limiter.take('k', 10), limiter.take('k', 20)]).toEqual([true, true, false]);
    expect(limiter.retryAfter('k', 20)).toBe(1);
    // At 160 the two at 0 and 10 have left the window; the refused one at 20 is still in it.
    expect(limiter.take('k', 160)).toBe(true);
    expect(limiter.take('k', 165)).toBe(false);
    expect(limiter.take('k', 400)).toBe(true);
    expect(limiter.take('other', 400)).toBe(true); // per key
  });

  it('keeps refused requests in the window: hammering while limited stays limited', () => {
    const limiter = new RateLimiter(2, 1000);
    expect([limiter.take('k', 0), limiter.take('k', 0)]).toEqual([true, true]); // t0: the budget is spent
    expect([limiter.take('k', 500), limiter.take('k', 500)]).toEqual([false, false]); // refused, but counted
    // t0+1100: the first two left the window; the two refused ones (until t0+1500) still fill it.
    expect(limiter.take('k', 1100)).toBe(false);
    expect(limiter.retryAfter('k', 1100)).toBe(1);
  });

  it('is 100 per minute per key by default', async () => {
    const em = await start({ rateLimit: undefined });
    const path = '/rest/v1/sessions/00000000-0000-4000-8000-000000000000';
    const statuses = [];
    for (let i = 0; i < 101; i += 1) statuses.push((await call(em, 'GET', path)).status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(100);
    expect(statuses[100]).toBe(429);
  });
});
