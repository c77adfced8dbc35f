// Reads ride out flaky networks and gateways; a POST is sent again only when it certainly never arrived,
// and otherwise the caller hears that its outcome is unknown.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.js';
import { HttpError } from '../../../src/core/api/errors.js';
import { fromHttpError } from '../../../src/core/errors/cli-error.js';
import {
  FAST,
  POLL,
  html,
  json,
  listPage,
  makeMessages,
  reset,
  seeded,
  session,
  serve,
  startServer,
  truncate,
} from '../../support/test-server.js';

const id = randomUUID();

describe('GET retries', () => {
  it('retries 502, 503, 504, 429, resets, truncated and non-JSON bodies, then returns the right answer', async () => {
    const script = ['502', 'html-502', '503', '504', '429', 'reset', 'truncate', 'garbage'];
    const s = await serve((req, res) => {
      const step = script[s.seen.length - 1];
      const body = session(s.url, id);
      if (step === '502' || step === '503' || step === '504') return json(res, Number(step), { error: step });
      if (step === 'html-502') return html(res, 502, '502 Bad Gateway');
      if (step === '429') return json(res, 429, { error: 'slow down' });
      if (step === 'reset') return reset(req);
      if (step === 'truncate') return truncate(res, body);
      if (step === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"id": "');
      }
      return json(res, 200, body);
    });
    const c = new ApiClient({ ...FAST, baseUrl: s.url, retry: { ...FAST.retry, maxRetries: 10 } });
    const got = await c.getSession(id);
    expect(got.id).toBe(id);
    expect(s.seen).toHaveLength(script.length + 1);
    expect(c.requestCount).toBe(script.length + 1);
  });

  it('does not retry a 500, a 404 or a 401', async () => {
    for (const status of [500, 404, 401]) {
      const s = await serve((_req, res) => json(res, status, { error: 'no' }));
      const c = new ApiClient({ ...FAST, baseUrl: s.url });
      await expect(c.getSession(id)).rejects.toMatchObject({ status });
      expect(s.seen).toHaveLength(1);
    }
  });

  it('stops after maxRetries', async () => {
    const s = await serve((_req, res) => json(res, 503, { error: 'down' }));
    const c = new ApiClient({ ...FAST, baseUrl: s.url, retry: { ...FAST.retry, maxRetries: 3 } });
    await expect(c.getSession(id)).rejects.toMatchObject({ kind: 'server', status: 503, transient: true });
    expect(s.seen).toHaveLength(4);
  });

  it('waits as long as Retry-After asks on a 429 or a 503, up to maxRetryAfterMs', async () => {
    for (const [status, header, expected] of [
      [429, '0.04', 40],
      [503, '0.03', 30],
      [503, '3600', 50],
    ] as const) {
      const s = await serve((_req, res) =>
        s.seen.length === 1
          ? json(res, status, { error: 'later' }, { 'retry-after': header })
          : json(res, 200, session(s.url, id)),
      );
      const lines: string[] = [];
      const c = new ApiClient({
        ...FAST,
        baseUrl: s.url,
        // Our own waits are at most 2 ms here: a longer one is the service's.
        retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 50 },
        debug: (line) => lines.push(line),
      });
      expect((await c.getSession(id)).id).toBe(id);
      expect(s.seen).toHaveLength(2);
      // A 429 is not counted against the retries: its line has no "of 6".
      const counted = status === 429 ? '1' : '1/6';
      expect(lines.filter((l) => l.startsWith('retry '))).toEqual([
        expect.stringMatching(new RegExp(`^retry ${counted} in ${expected} ms after: `)) as string,
      ]);
    }
  });

  it('stops when the next wait would overrun the budget (429s have a budget of their own)', async () => {
    // A 429 waits at least half the backoff ceiling (here 50 ms), more than the 10 ms budget.
    const s = await serve((_req, res) => json(res, 429, { error: 'busy' }));
    const c = new ApiClient({
      ...FAST,
      baseUrl: s.url,
      retry: {
        maxRetries: 5,
        baseDelayMs: 100,
        maxDelayMs: 100,
        totalBudgetMs: 60_000,
        rateLimitedBudgetMs: 10,
      },
    });
    await expect(c.getSession(id)).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(s.seen).toHaveLength(1);
    // Retry-After: 1 makes the wait a second, past the 10 ms budget, whatever the jitter.
    const t = await serve((_req, res) => json(res, 503, { error: 'down' }, { 'retry-after': '1' }));
    const d = new ApiClient({
      ...FAST,
      baseUrl: t.url,
      retry: {
        maxRetries: 5,
        baseDelayMs: 100,
        maxDelayMs: 100,
        totalBudgetMs: 10,
        rateLimitedBudgetMs: 60_000,
      },
    });
    await expect(d.getSession(id)).rejects.toMatchObject({ kind: 'server' });
    expect(t.seen).toHaveLength(1);
  });

  it('429s do not count against maxRetries: ten of them, then the answer', async () => {
    const s = await serve((_req, res) =>
      s.seen.length <= 10 ? json(res, 429, { error: 'busy' }) : json(res, 200, session(s.url, id)),
    );
    const c = new ApiClient({
      ...FAST,
      baseUrl: s.url,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 2 },
    });
    expect((await c.getSession(id)).id).toBe(id);
    expect(s.seen).toHaveLength(11);
  });

  it('reads survive a 30% fault rate (502/503/reset/truncate/429) with correct results', async () => {
    const random = seeded(42);
    // A session of its own: the count below takes only this client's requests. A port the OS hands out
    // again may still draw a retry from another file's client whose server has closed (seen once in CI).
    const sid = randomUUID();
    const messages = makeMessages(sid, 250);
    let faults = 0;
    const s = await serve((req, res) => {
      if (random() < 0.3) {
        faults += 1;
        const mode = ['502', '503', 'reset', 'truncate', '429'][Math.floor(random() * 5)];
        if (mode === 'reset') return reset(req);
        if (mode === 'truncate') return truncate(res, listPage(s.url, req.url!, messages));
        return json(res, Number(mode), { error: `fault ${mode}` });
      }
      return json(res, 200, listPage(s.url, req.url!, messages));
    });
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    for (let round = 0; round < 20; round++) {
      const seen: string[] = [];
      for await (const m of c.iterateMessages({ sessionId: sid }, { direction: 'asc' })) seen.push(m.id);
      expect(seen).toEqual(messages.map((m) => m.id));
    }
    expect(faults).toBeGreaterThan(10);
    expect(c.requestCount).toBe(s.seen.filter((r) => r.url.includes(sid)).length);
  });
});

describe('POST: never repeated once it may have arrived', () => {
  it('a reset after the server committed is not repeated and says the outcome is unknown', async () => {
    let created = 0;
    const s = await serve((req) => {
      created += 1; // committed, then the connection drops before the answer
      reset(req);
    });
    const c = new ApiClient({ ...FAST, baseUrl: s.url, retry: { ...FAST.retry, maxRetries: 6 } });
    const err = (await c
      .createSession({ message: 'hi', agent_name: 'claude' })
      .catch((e: unknown) => e)) as HttpError;
    expect(created).toBe(1);
    expect(s.seen).toHaveLength(1);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.outcomeUnknown).toBe(true);
    expect(err.transient).toBe(false);
    expect(err.message).toMatch(/^the session may have been created \(outcome unknown\): /);
    expect(fromHttpError(err).hint).toMatch(/not sent again.*dashboard/);
  });

  it('a follow-up answered 503 is not repeated; the hint names the session to check', async () => {
    const s = await serve((_req, res) => json(res, 503, { error: 'unavailable' }));
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const err = (await c.sendMessage(id, { message: 'more' }).catch((e: unknown) => e)) as HttpError;
    expect(s.seen).toHaveLength(1);
    expect(err.outcomeUnknown).toBe(true);
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/^the message may have been created/);
    expect(fromHttpError(err).hint).toContain(`agents show ${id}`);
  });

  it('a success whose body is cut short says the session was created', async () => {
    const s = await serve((_req, res) => truncate(res, session(s.url)));
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const err = (await c
      .createSession({ message: 'hi', agent_name: 'claude' })
      .catch((e: unknown) => e)) as HttpError;
    expect(s.seen).toHaveLength(1);
    expect(err.outcomeUnknown).toBe(true);
    expect(err.message).toMatch(/^the session was created, but the answer could not be read/);
  });

  it('a time-out after sending is not repeated', async () => {
    const s = await serve(() => undefined); // takes the request, never answers
    const c = new ApiClient({ ...FAST, baseUrl: s.url, responseTimeoutMs: 100 });
    const err = (await c
      .createSession({ message: 'hi', agent_name: 'claude' })
      .catch((e: unknown) => e)) as HttpError;
    expect(s.seen).toHaveLength(1);
    expect(err.kind).toBe('timeout');
    expect(err.outcomeUnknown).toBe(true);
  });

  it('a 4xx answer is a definite refusal, not an unknown outcome', async () => {
    const s = await serve((_req, res) => json(res, 400, { error: 'agent_name is required' }));
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const err = (await c.createSession({ message: 'hi' }).catch((e: unknown) => e)) as HttpError;
    expect(err.kind).toBe('validation');
    expect(err.outcomeUnknown).toBe(false);
    expect(s.seen).toHaveLength(1);
  });

  it('a 429 answer is retried: the service refused it before acting', async () => {
    const s = await serve((_req, res) =>
      s.seen.length === 1 ? json(res, 429, { error: 'busy' }) : json(res, 201, session(s.url)),
    );
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const got = await c.createSession({ message: 'hi', agent_name: 'claude' });
    expect(got.id).toBeTruthy();
    expect(s.seen).toHaveLength(2);
  });

  it('a refused connection is retried until the server comes up, and arrives once', async () => {
    // Find a free port, then leave it closed for a while.
    const probe = await startServer(() => undefined);
    const port = probe.port;
    await probe.close();
    const c = new ApiClient({
      ...FAST,
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { maxRetries: 20, baseDelayMs: 20, maxDelayMs: 40, totalBudgetMs: 10_000 },
    });
    let failed: unknown;
    const pending = c.createSession({ message: 'hi', agent_name: 'claude' }).catch((e: unknown) => {
      failed = e;
    });
    // Refused twice (and still trying) before the server comes up.
    await expect.poll(() => failed ?? c.requestCount >= 2, POLL).toBe(true);
    const s = await serve((_req, res) => json(res, 201, session(s.url)), port);
    const got = await pending;
    expect(failed).toBeUndefined();
    expect(got?.id).toBeTruthy();
    expect(s.seen).toHaveLength(1);
    expect(c.requestCount).toBeGreaterThanOrEqual(3);
  });
});
