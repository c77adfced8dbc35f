// The budget shared through a state file, in-process: limiters made as separate processes make them
// (one each, the same directory) keep one sliding window between them; a broken or unwritable file falls
// back to the process's own window with one warning; keys do not share; entries of a process that died
// hold nothing past their lease and one window. Real processes: test/process/shared-budget-processes.test.ts.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SharedLimiter } from '../../../src/core/budget/shared.js';
import { fileLimiter, RESERVE_PER_WAITER, sharedLimiterFor } from '../../../src/core/budget/shared.js';
import { SHARE_MARGIN } from '../../../src/core/budget/limiter.js';
import { ApiClient } from '../../../src/core/api/client.js';
import { Follower } from '../../../src/core/poll/follow.js';
import { DEFAULT_SCHEDULE } from '../../../src/core/poll/schedule.js';
import { stateFileName, type SharedState } from '../../../src/core/budget/state.js';
import { busiestWindow, KEY, POLL, sessionServer, type TestServer } from '../../support/test-server.js';
import { ownEmulator } from '../../support/emulator.js';
import { until } from '../../support/until.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'agents-pacing-'));

/** A limiter as a separate process would make it: its own object (its own id), the shared directory. */
function processLimiter(
  origin: string,
  dir: string,
  pacing = { limit: 6, windowMs: 300 },
  warnings: string[] = [],
  key = KEY,
): SharedLimiter {
  return fileLimiter(origin, key, pacing, { dir, onFallback: (m) => warnings.push(m), leaseMs: 200 });
}

/** What the client's transport does around each request: a slot, the request, the slot given back. */
function clientOn(s: TestServer, limiter: SharedLimiter) {
  return {
    async getSession(id: string, o: { signal?: AbortSignal } = {}): Promise<void> {
      const release = await limiter.acquire(o.signal);
      try {
        const res = await fetch(`${s.url}/rest/v1/sessions/${id}`, { signal: o.signal });
        await res.arrayBuffer();
      } finally {
        release();
      }
    },
  };
}

/** N waiters' share of 100 a minute (a little more while the window holds a few requests). */
function expectShare(gap: number, waiters: number): void {
  expect(gap).toBeGreaterThanOrEqual(Math.round(waiters * 600 * 1.1));
  expect(gap).toBeLessThanOrEqual(waiters * 600 * 1.1 * 1.05);
}

const readStateAt = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as SharedState;
const readState = (l: SharedLimiter) => JSON.parse(readFileSync(l.path, 'utf8')) as SharedState;

describe('a budget shared through the state file', () => {
  it('three "processes" of one key, bursting at once: no window holds more than the limit', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const pacing = { limit: 6, windowMs: 300 };
    const limiters = [1, 2, 3].map(() => processLimiter(s.url, dir, pacing));
    const clients = limiters.map((l) => clientOn(s, l));
    await Promise.all(clients.flatMap((c) => Array.from({ length: 6 }, () => c.getSession(randomUUID()))));
    expect(s.seen).toHaveLength(18);
    expect(busiestWindow(s.seen, pacing.windowMs)).toBeLessThanOrEqual(pacing.limit);
    // Each alone would have let its first 6 through at once: 18 in the first window.
    expect(limiters.every((l) => !l.fellBack)).toBe(true);
  });

  it('the file is 0600 in a 0700 directory, named for the origin and a hash of the key, and holds no key', async () => {
    const s = await sessionServer();
    const dir = join(tempDir(), 'pacing');
    const l = processLimiter(s.url, dir);
    await clientOn(s, l).getSession(randomUUID());
    await expect.poll(() => readState(l).ended.length, POLL).toBe(1);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(l.path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([stateFileName(new URL(s.url).origin, KEY)]);
    expect(readFileSync(l.path, 'utf8')).not.toContain(KEY);
  });

  it('two keys side by side: two files, and each key has its whole budget', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const pacing = { limit: 4, windowMs: 60_000 };
    const a = processLimiter(s.url, dir, pacing, [], 'key-a');
    const b = processLimiter(s.url, dir, pacing, [], 'key-b');
    // Four each, at once: with one budget between them the second four would wait a minute.
    const releases = await Promise.all(Array.from({ length: 4 }, () => [a.acquire(), b.acquire()]).flat());
    releases.forEach((r) => r());
    await expect.poll(() => readdirSync(dir).filter((f) => f.endsWith('.json')).length, POLL).toBe(2);
    expect(a.path).not.toBe(b.path);
    await expect.poll(() => readState(a).ended.length + readState(b).ended.length, POLL).toBe(8);
    // And each is now full: a fifth on key a waits, which the signal ends.
    const controller = new AbortController();
    const fifth = a.acquire(controller.signal).catch((e: unknown) => e);
    controller.abort('SIGINT');
    expect(await fifth).toBe('SIGINT');
  });

  it('a corrupt file: repaired at once, the broken copy kept beside it, said once; the budget stays shared', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const warnings: string[] = [];
    const repairs: string[] = [];
    const pacing = { limit: 5, windowMs: 300 };
    const l = fileLimiter(s.url, KEY, pacing, {
      dir,
      onFallback: (m) => warnings.push(m),
      onRepair: (m) => repairs.push(m),
      leaseMs: 200,
    });
    writeFileSync(l.path, '{"v":1,"ended":[1,2', { mode: 0o600 });
    const c = clientOn(s, l);
    await Promise.all(Array.from({ length: 10 }, () => c.getSession(randomUUID())));
    expect(s.seen).toHaveLength(10);
    expect(busiestWindow(s.seen, pacing.windowMs)).toBeLessThanOrEqual(pacing.limit);
    expect([l.fellBack, warnings]).toEqual([false, []]);
    expect(repairs).toHaveLength(1);
    const copy = readdirSync(dir).find((f) => f.includes('.broken-'));
    expect(repairs[0]).toBe(
      `the request budget file ${l.path} could not be used (it is not JSON): replaced it, the broken one kept at ${join(dir, copy ?? '')}`,
    );
    // The broken file as it was, for a person to look at; a sound one in its place.
    expect(readFileSync(join(dir, copy ?? ''), 'utf8')).toBe('{"v":1,"ended":[1,2');
    await expect.poll(() => readState(l).ended.length, POLL).toBeGreaterThan(0);
  });

  it("a newer version's file: left alone, one warning, then the process paces itself alone", async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const warnings: string[] = [];
    const pacing = { limit: 5, windowMs: 300 };
    const l = processLimiter(s.url, dir, pacing, warnings);
    writeFileSync(l.path, '{"v":2}', { mode: 0o600 });
    const c = clientOn(s, l);
    await Promise.all(Array.from({ length: 10 }, () => c.getSession(randomUUID())));
    expect(busiestWindow(s.seen, pacing.windowMs)).toBeLessThanOrEqual(pacing.limit);
    expect(l.fellBack).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /a newer version of agents wrote it; use that version, or delete it, to share the budget again\); this process paces itself alone/,
    );
    expect(readFileSync(l.path, 'utf8')).toBe('{"v":2}');
    expect(readdirSync(dir).filter((f) => f.includes('.broken-'))).toEqual([]);
  });

  it('an empty file (a crash before the first write) is a fresh budget, not a broken one', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const warnings: string[] = [];
    const l = processLimiter(s.url, dir, undefined, warnings);
    writeFileSync(l.path, '');
    await clientOn(s, l).getSession(randomUUID());
    expect(warnings).toEqual([]);
    await expect.poll(() => readState(l).ended.length, POLL).toBe(1);
  });

  it('a directory that cannot be made: one warning, requests still go (paced alone)', async () => {
    const s = await sessionServer();
    const blocker = join(tempDir(), 'a-file');
    writeFileSync(blocker, 'not a directory');
    const warnings: string[] = [];
    const l = processLimiter(s.url, join(blocker, 'pacing'), undefined, warnings);
    const c = clientOn(s, l);
    await c.getSession(randomUUID());
    await c.getSession(randomUUID());
    expect(s.seen).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\(ENOTDIR\); this process paces itself alone/);
  });

  it('a 429 in one process lowers the limit for every process of the machine', async () => {
    const dir = tempDir();
    const origin = 'http://127.0.0.1:9';
    const pacing = { limit: 8, windowMs: 60_000 };
    const a = processLimiter(origin, dir, pacing);
    const b = processLimiter(origin, dir, pacing);
    // A's request was refused with a 429: the key is spent by others this machine cannot see.
    (await a.acquire())(true, true);
    const file = join(dir, stateFileName(origin, KEY));
    await until(() => (JSON.parse(readFileSync(file, 'utf8')) as SharedState).cap?.[0] === 4);
    // Half of 8 is left, A's refused request holding one: B gets three, and its fourth waits for a slot to
    // grow back (one every 2 s), where the whole limit would have let it go at once.
    for (let i = 0; i < 3; i++) (await b.acquire())();
    await expect(b.acquire(AbortSignal.timeout(300))).rejects.toThrow();
  });

  it('a process that died mid-request holds its slot until its lease ran out and one window more, not for ever', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const pacing = { limit: 2, windowMs: 400 };
    const l = processLimiter(s.url, dir, pacing);
    // What a process killed during two requests leaves: entries in flight whose leases run out now (as
    // a version before the queue wrote them: no queue).
    const lease = Date.now();
    mkdirSync(dir, { recursive: true });
    const dead: Omit<SharedState, 'queue'> = {
      v: 1,
      ended: [],
      flight: { 'dead.1': lease, 'dead.2': lease },
      waiters: {},
    };
    writeFileSync(l.path, JSON.stringify(dead), { mode: 0o600 });
    const c = clientOn(s, l);
    const granted: number[] = [];
    await Promise.all(
      [1, 2, 3].map(async () => {
        await c.getSession(randomUUID());
        granted.push(Date.now());
      }),
    );
    // The dead requests may have reached the server until their lease ran out: nothing before a window
    // after that; and every request went in the end (the dead entries hold nothing for ever).
    expect(Math.min(...s.seen.map((r) => performance.timeOrigin + r.at))).toBeGreaterThanOrEqual(
      lease + pacing.windowMs - 2,
    );
    expect(s.seen).toHaveLength(3);
    expect(granted).toHaveLength(3);
    await expect.poll(() => Object.keys(readState(l).flight), POLL).toEqual([]);
  });

  it('a request in flight renews its lease, so a slow answer never loses its slot', async () => {
    const s = await sessionServer({ delayMs: 1200 });
    const dir = tempDir();
    const pacing = { limit: 1, windowMs: 200 };
    const l = fileLimiter(s.url, KEY, pacing, { dir, leaseMs: 500 }); // renewed about every 167 ms
    const other = fileLimiter(s.url, KEY, pacing, { dir, leaseMs: 500 });
    let slowEnded = 0;
    const slow = clientOn(s, l)
      .getSession(randomUUID())
      .then(() => (slowEnded = Date.now()));
    await expect.poll(() => s.seen.length, POLL).toBe(1);
    const release = await other.acquire();
    const grantedAt = Date.now();
    release();
    await slow;
    // Without renewal the slot would have passed at lease + window, while the answer was still coming.
    expect(grantedAt).toBeGreaterThanOrEqual(slowEnded + pacing.windowMs - 2);
  });

  it('sequential requests cost one transaction each: a request takes its slot with the last one’s end', async () => {
    const s = await sessionServer();
    // A lease of a minute: a request in flight past a third of it is renewed, a transaction of its own,
    // which processLimiter's 200 ms lease drew on a loaded machine.
    const l = fileLimiter(s.url, KEY, { limit: 10, windowMs: 60_000 }, { dir: tempDir(), leaseMs: 60_000 });
    const c = clientOn(s, l);
    for (let i = 0; i < 3; i += 1) await c.getSession(randomUUID());
    await expect.poll(() => readState(l).ended.length, POLL).toBe(3);
    expect(Object.keys(readState(l).flight)).toEqual([]);
    // Three slots, the first two ends taken along by the next slot, the last end written alone.
    expect(l.cost.transactions).toBe(4);
  });

  it('a call waiting for a shared slot is cancelled at once by its signal, and its place is not kept', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const pacing = { limit: 1, windowMs: 60_000 };
    const l = processLimiter(s.url, dir, pacing);
    const c = clientOn(s, l);
    await c.getSession(randomUUID());
    const controller = new AbortController();
    const pending = c.getSession(randomUUID(), { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort('SIGINT');
    expect(await pending).toBe('SIGINT');
    expect(s.seen).toHaveLength(1);
    // The first request's end is written (soon after it ended), and nothing of the cancelled one.
    await expect.poll(() => readState(l).ended.length, POLL).toBe(1);
    expect(Object.keys(readState(l).flight)).toEqual([]);
  });
});

describe('the slots kept aside for the reads that end a wait', () => {
  it('the machine budget the CLI makes keeps RESERVE_PER_WAITER a waiter, as the fleet budget in Redis does', () => {
    const pacing = { limit: 100, windowMs: 60_000 };
    const l = sharedLimiterFor('http://127.0.0.1:9', `${KEY}-reserve`, pacing, { dir: tempDir() });
    expect(l.reservePerWaiter).toBe(RESERVE_PER_WAITER);
    // 32 waiters: SHARE_MARGIN's 1.1, made about 1.26 by 12.8 slots kept aside.
    expect(l.shareMargin(32)).toBeCloseTo((SHARE_MARGIN * 100) / (100 - 32 * RESERVE_PER_WAITER), 6);
    expect(l.shareMargin(32)).toBeGreaterThan(1.25);
  });
});

describe('the queue of requests waiting for a slot, across processes', () => {
  it('a free slot goes to the request another process asked for first; an urgent one goes before it', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const l = processLimiter(s.url, dir, { limit: 2, windowMs: 300 });
    mkdirSync(dir, { recursive: true });
    // One slot held, one free, and a request of another process waiting for a slot since a second ago.
    const now = Date.now();
    const state: SharedState = {
      v: 1,
      ended: [],
      flight: { 'busy.1': now + 60_000 },
      waiters: {},
      queue: { 'other.q1': [now - 1000, now + 60_000] },
    };
    writeFileSync(l.path, JSON.stringify(state), { mode: 0o600 });
    const controller = new AbortController();
    let served = false;
    const poll = l.acquire(controller.signal).then(
      () => (served = true),
      (e: unknown) => e,
    );
    // Queued behind the other process's request, not served.
    await until(() => Object.keys(readState(l).queue).length === 2);
    expect(served).toBe(false);
    // A read a reply waits on ranks ahead of both, and takes the free slot.
    const urgent = await l.acquire(undefined, { urgent: true });
    expect(Object.keys(readState(l).flight)).toHaveLength(2);
    expect(served).toBe(false);
    urgent();
    // Given up, the poll's ticket leaves the queue: it holds up nobody.
    controller.abort('SIGINT');
    expect(await poll).toBe('SIGINT');
    await until(() => Object.keys(readState(l).queue).join() === 'other.q1');
  });
});

describe('waiters registered in the shared state', () => {
  it('each sees every waiter on the key: its share widens with theirs and narrows when they leave', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const pacing = { limit: 100, windowMs: 60_000 };
    const a = processLimiter(s.url, dir, pacing);
    const b = processLimiter(s.url, dir, pacing);
    const mine = a.register();
    const theirs = [b.register(), b.register(), b.register()];
    // Each process learns of the others at its next request.
    await clientOn(s, b).getSession(randomUUID());
    await clientOn(s, a).getSession(randomUUID());
    expectShare(mine.gapMs(), 4);
    theirs.forEach((w) => w.close());
    await expect.poll(() => Object.keys(readState(b).waiters).length, POLL).toBe(1);
    await clientOn(s, a).getSession(randomUUID());
    expectShare(mine.gapMs(), 1);
    mine.close();
    await expect.poll(() => readState(a).waiters, POLL).toEqual({});
  });

  it('a dead process’s waiters lapse at their deadline instead of slowing the others for ever', async () => {
    const s = await sessionServer();
    const dir = tempDir();
    const a = processLimiter(s.url, dir, { limit: 100, windowMs: 60_000 });
    const mine = a.register();
    mkdirSync(dir, { recursive: true });
    const now = Date.now();
    const state: SharedState = {
      v: 1,
      ended: [],
      flight: {},
      waiters: { live: [5, now + 60_000], dead: [20, now - 1] },
      queue: {},
    };
    writeFileSync(a.path, JSON.stringify(state), { mode: 0o600 });
    await clientOn(s, a).getSession(randomUUID());
    expectShare(mine.gapMs(), 6);
    const ids = Object.keys(readState(a).waiters);
    expect(ids).toHaveLength(2);
    expect(ids).toContain('live');
    mine.close();
  });
});

describe('a follower on a shared key', () => {
  it('registers while it polls, spaces its polls by its share, and leaves when it ends', async () => {
    const em = await ownEmulator();
    try {
      const dir = tempDir();
      const apiKey = KEY;
      const pacing = { limit: 100, windowMs: 60_000 };
      const client = new ApiClient({ baseUrl: em.url, apiKey, pacing, sharedPacing: { dir } });
      const session = await client.createSession({ agent_name: 'claude', message: '[[never]] x' });
      const target = { sessionId: session.id, threadId: session.thread_id ?? '' };
      // 199 waiters elsewhere on the key: this one's share is a poll every 200 × 0.66 s (at most a minute).
      const crowd = fileLimiter(new URL(em.url).origin, apiKey, pacing, { dir });
      const others = Array.from({ length: 199 }, () => crowd.register());
      (await crowd.acquire())();
      const file = join(dir, stateFileName(new URL(em.url).origin, apiKey));
      const waiting = () => Object.values(readStateAt(file).waiters).reduce((n, [count]) => n + count, 0);
      await expect.poll(waiting, POLL).toBe(199);

      const schedule = { ...DEFAULT_SCHEDULE, minMs: 10, maxMs: 20 };
      const controller = new AbortController();
      const follower = new Follower({
        client,
        target,
        types: ['final_message'],
        untilFinal: true,
        signal: controller.signal,
        schedule,
      });
      const following = (async () => {
        for await (const m of follower) void m;
      })().catch(() => undefined);
      await expect.poll(waiting, POLL).toBe(200);
      // The same follow without a budget to share polls five times; this one not once meanwhile.
      const alone = new Follower({
        client: new ApiClient({ baseUrl: em.url, apiKey, pacing: false }),
        target,
        types: ['final_message'],
        untilFinal: true,
        signal: controller.signal,
        schedule,
      });
      const aloneRuns = (async () => {
        for await (const m of alone) void m;
      })().catch(() => undefined);
      await expect.poll(() => alone.requests, POLL).toBeGreaterThanOrEqual(5);
      expect(follower.requests).toBe(0);
      controller.abort();
      await Promise.all([following, aloneRuns]);
      await expect.poll(waiting, POLL).toBe(199);
      others.forEach((o) => o.close());
    } finally {
      await em.close();
    }
  });
});
