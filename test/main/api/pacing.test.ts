// The sliding-window limiter: whatever the callers do, no window of `windowMs` sees more than `limit`
// requests at the server, retries included, across every client of one key in the process.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.js';
import { HttpError } from '../../../src/core/api/errors.js';
import { SlidingWindowLimiter, limiterFor } from '../../../src/core/budget/limiter.js';
import { KEY, busiestWindow, sessionServer } from '../../support/test-server.js';
import { until } from '../../support/until.js';

describe('pacing', () => {
  it('a burst of 300 calls never exceeds the limit in any window, and every call succeeds', async () => {
    const s = await sessionServer();
    const pacing = { limit: 20, windowMs: 100 };
    const c = new ApiClient({ apiKey: `${KEY}-burst`, baseUrl: s.url, pacing });
    const ids = Array.from({ length: 300 }, () => randomUUID());
    const got = await Promise.all(ids.map((id) => c.getSession(id)));
    expect(got.map((g) => g.id)).toEqual(ids);
    expect(s.seen).toHaveLength(300);
    expect(busiestWindow(s.seen, pacing.windowMs)).toBeLessThanOrEqual(pacing.limit);
  });

  it('clients of one key share the limit; retries count against it', async () => {
    const s = await sessionServer({ status: 503 });
    const pacing = { limit: 5, windowMs: 150 };
    const options = {
      apiKey: `${KEY}-shared`,
      baseUrl: s.url,
      pacing,
      retry: { maxRetries: 9, baseDelayMs: 0, maxDelayMs: 0 },
    };
    const a = new ApiClient(options);
    const b = new ApiClient(options);
    const results = await Promise.allSettled([a.getSession(randomUUID()), b.getSession(randomUUID())]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(s.seen).toHaveLength(20);
    expect(busiestWindow(s.seen, pacing.windowMs)).toBeLessThanOrEqual(pacing.limit);
  });

  it('keeps one limiter per origin and key', () => {
    const pacing = { limit: 3, windowMs: 1000 };
    const one = limiterFor('http://a.example', 'k1', pacing);
    expect(limiterFor('http://a.example', 'k1', { limit: 50, windowMs: 10 })).toBe(one);
    expect(limiterFor('http://a.example', 'k2', pacing)).not.toBe(one);
    expect(limiterFor('http://b.example', 'k1', pacing)).not.toBe(one);
  });

  it('a call waiting for a slot is cancelled at once by its signal, and nothing is sent', async () => {
    const s = await sessionServer();
    const c = new ApiClient({
      apiKey: `${KEY}-abort`,
      baseUrl: s.url,
      pacing: { limit: 1, windowMs: 60_000 },
    });
    await c.getSession(randomUUID());
    // The one slot is held for a minute: the next call waits in the queue, which only its signal ends.
    expect(
      limiterFor(new URL(s.url).origin, `${KEY}-abort`, { limit: 1, windowMs: 60_000 }).available(),
    ).toBe(0);
    const controller = new AbortController();
    const pending = c.getSession(randomUUID(), { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort('SIGINT');
    const err = (await pending) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.kind).toBe('aborted');
    expect(err.cause).toBe('SIGINT');
    expect(s.seen).toHaveLength(1);
    expect(c.requestCount).toBe(1);
  });

  it('a 429 for a request it had room for halves what the budget lets through: others spend the key too', async () => {
    // A server that refuses everything, as a key kept full by other machines would.
    const s = await sessionServer({ status: 429 });
    const pacing = { limit: 8, windowMs: 60_000 };
    const c = new ApiClient({
      apiKey: `${KEY}-refused`,
      baseUrl: s.url,
      pacing,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
    });
    const limiter = limiterFor(new URL(s.url).origin, `${KEY}-refused`, pacing);
    const controller = new AbortController();
    const call = c.getSession(randomUUID(), { signal: controller.signal }).catch((e: unknown) => e);
    // 8 slots; the first 429 leaves 4, the second (a request granted after that) 2, both held: the third
    // try waits for a slot to grow back (one every 2 s). Without the halving all 8 would have gone at once.
    await until(() => s.seen.length >= 2 && limiter.available() === 0);
    expect(limiter.capacity()).toBe(2);
    expect(s.seen).toHaveLength(2);
    controller.abort('SIGINT');
    expect(((await call) as HttpError).kind).toBe('aborted');
  });

  it('serves waiters first come, first served, and frees an aborted waiter’s turn', async () => {
    const limiter = new SlidingWindowLimiter({ limit: 1, windowMs: 30 });
    const order: string[] = [];
    const release = await limiter.acquire();
    const controller = new AbortController();
    const first = limiter.acquire().then((done) => {
      order.push('first');
      done();
    });
    const aborted = limiter.acquire(controller.signal).then(
      () => void order.push('aborted'),
      () => void order.push('cancelled'),
    );
    const third = limiter.acquire().then((done) => {
      order.push('third');
      done();
    });
    controller.abort();
    release();
    await Promise.all([first, aborted, third]);
    expect(order).toEqual(['cancelled', 'first', 'third']);
    // The third request ended just now: its slot is held for one more window.
    expect(limiter.available()).toBe(0);
  });

  it('an urgent call goes before the calls waiting without it, behind the urgent ones before it', async () => {
    const s = await sessionServer();
    const pacing = { limit: 1, windowMs: 40 };
    const c = new ApiClient({ apiKey: `${KEY}-urgent`, baseUrl: s.url, pacing });
    const held = await limiterFor(s.url, `${KEY}-urgent`, pacing).acquire();
    const ids = { poll1: randomUUID(), poll2: randomUUID(), read1: randomUUID(), read2: randomUUID() };
    const calls = [
      c.getSession(ids.poll1),
      c.getSession(ids.read1, { urgent: true }),
      c.getSession(ids.poll2),
      c.getSession(ids.read2, { urgent: true }),
    ];
    held(false);
    await Promise.all(calls);
    const order = s.seen.map((r) => r.url.split('/').pop());
    expect(order).toEqual([ids.read1, ids.read2, ids.poll1, ids.poll2]);
  });
});
