// One key's budget across machines, kept in a real redis-server and a real valkey-server: limiters of
// separate "machines" (each with its own state directory, so no file in common) share one sliding window;
// a dead machine's slots lapse with their lease; nothing in Redis carries the key and every key has a time
// to live; a store that is unreachable, lost mid-way or holding garbage is one warning and the machine's
// budget, and a store that comes back is joined again; the URL's password is never printed.
//
// The whole set runs against redis-server. Against valkey-server runs what touches the server's behaviour:
// the lock and unlock script under a burst, leases, waiters, garbage under our key, and a store lost and
// joined again, machines whose clocks disagree; not the unreachable store (no server at all), nor the keys'
// time to live and the password through the CLI, which use the same scripts again and would cost the
// suite's time twice for nothing Valkey could do differently. A server missing here skips its tests,
// naming it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RESERVE_PER_WAITER, fileLimiter, SharedLimiter } from '../../../src/core/budget/shared.js';
import { SHARE_MARGIN } from '../../../src/core/budget/limiter.js';
import { answer, budgetKey, KEY_PREFIX, RedisStore } from '../../../src/core/budget/redis-store.js';
import { busiestWindow, KEY, POLL, sessionServer, type TestServer } from '../../support/test-server.js';
import type { SharedState } from '../../../src/core/budget/state.js';
import {
  freePort,
  REDIS_SERVER,
  REDIS_SERVERS,
  redisSkipReason,
  startRedis,
  type RedisServerKind,
  type TestRedis,
} from '../../support/redis.js';
import { fixture } from '../../support/fixture.js';
import { until } from '../../support/until.js';

const redises: TestRedis[] = [];
afterEach(async () => {
  await Promise.all(redises.splice(0).map((r) => r.stop()));
});

async function redis(kind: RedisServerKind, password?: string): Promise<TestRedis> {
  const r = await startRedis({ password, kind });
  redises.push(r);
  return r;
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'agents-redis-budget-'));

/** A machine's limiter on `url`: its own state directory, its own warnings. */
function machine(
  origin: string,
  url: string,
  pacing = { limit: 6, windowMs: 400 },
  notes: string[] = [],
  reservePerWaiter = 0,
  /** The machine's clock, when it is not this one's (Date.now). */
  clock?: () => number,
) {
  const options = {
    reservePerWaiter,
    dir: tempDir(),
    url,
    leaseMs: 300,
    // A store lost is tried again this soon (5 s in the CLI), so that the test of its return is quick.
    rejoinMs: 300,
    onFallback: (m: string) => notes.push(`fallback: ${m}`),
    onRejoin: (m: string) => notes.push(`rejoin: ${m}`),
  };
  return new SharedLimiter(
    pacing,
    new RedisStore(url, origin, KEY, clock),
    options,
    fileLimiter(origin, KEY, pacing, options),
  );
}

/** A slot, one GET of the test server, the slot back: what the transport does around a request. */
async function request(s: TestServer, limiter: SharedLimiter): Promise<void> {
  const release = await limiter.acquire();
  try {
    await (await fetch(`${s.url}/rest/v1/sessions/${randomUUID()}`)).arrayBuffer();
  } finally {
    release();
  }
}

for (const kind of REDIS_SERVERS) {
  const skip = redisSkipReason(kind);
  /** Tests of the whole set only: run against redis-server, not again against the others. */
  const full = kind === REDIS_SERVER ? it : undefined;
  describe.skipIf(skip !== undefined)(
    `the key's budget in ${kind.server}${skip ? ` (skipped: ${skip})` : ''}`,
    () => {
      it('three machines bursting at once share one window: none holds more than the limit', async () => {
        const r = await redis(kind);
        const s = await sessionServer();
        const pacing = { limit: 6, windowMs: 400 };
        const notes: string[] = [];
        const machines = [1, 2, 3].map(() => machine(s.url, r.url, pacing, notes));
        await Promise.all(machines.flatMap((m) => Array.from({ length: 6 }, () => request(s, m))));
        expect(s.seen).toHaveLength(18);
        expect(notes).toEqual([]);
        // Each machine alone would have let its own 6 through at once: 18 in the first window.
        expect(busiestWindow(s.seen, pacing.windowMs)).toBeLessThanOrEqual(pacing.limit);
        expect(machines.every((m) => !m.fellBack)).toBe(true);
      });

      it("machines whose clocks disagree by more than a window share it all the same, on the store's clock", async () => {
        const r = await redis(kind);
        const s = await sessionServer();
        const pacing = { limit: 6, windowMs: 400 };
        const notes: string[] = [];
        // One machine's clock 5 s slow, one 3 s fast: on its own clock, each would take the others' requests
        // for ones that left the window long ago, or not yet ended.
        const machines = [-5000, 0, 3000].map((skew) =>
          machine(s.url, r.url, pacing, notes, 0, () => Date.now() + skew),
        );
        await Promise.all(machines.flatMap((m) => Array.from({ length: 6 }, () => request(s, m))));
        expect(s.seen).toHaveLength(18);
        expect(notes).toEqual([]);
        expect(busiestWindow(s.seen, pacing.windowMs)).toBeLessThanOrEqual(pacing.limit);
      });

      it('waiters on two machines each take their share of the key; alone, one takes the whole key', async () => {
        const r = await redis(kind);
        const s = await sessionServer();
        const pacing = { limit: 100, windowMs: 60_000 };
        // As the CLI makes them: a slot of the window kept aside in part for each waiter of the fleet.
        const a = machine(s.url, r.url, pacing, [], RESERVE_PER_WAITER);
        const b = machine(s.url, r.url, pacing, [], RESERVE_PER_WAITER);
        const mine = a.register();
        const theirs = [b.register(), b.register(), b.register()];
        // Each machine learns of the others' waiters at its next request.
        await request(s, b);
        await request(s, a);
        const kept = (n: number) => 100 / (100 - RESERVE_PER_WAITER * n);
        const share = (n: number) => Math.round(n * 600 * SHARE_MARGIN * kept(n));
        expect(a.shareMargin(32)).toBeGreaterThan(1.25);
        expect(mine.gapMs()).toBeGreaterThanOrEqual(share(4));
        expect(mine.gapMs()).toBeLessThanOrEqual(share(4) * 1.05);
        theirs.forEach((w) => w.close());
        await request(s, b);
        await request(s, a);
        expect(mine.gapMs()).toBeLessThanOrEqual(share(1) * 1.05);
        mine.close();
      });

      it('a machine that died mid-request holds its slots until their lease ran out and one window more', async () => {
        const r = await redis(kind);
        const s = await sessionServer();
        const pacing = { limit: 2, windowMs: 400 };
        const notes: string[] = [];
        // What a machine killed during two requests leaves: entries in flight whose leases run out now.
        const lease = Date.now();
        const dead: SharedState = {
          v: 1,
          ended: [],
          flight: { 'dead.1': lease, 'dead.2': lease },
          waiters: {},
          queue: {},
        };
        const key = budgetKey(new URL(s.url).origin, KEY);
        r.cli('set', key, JSON.stringify(dead), 'px', '60000');
        const m = machine(s.url, r.url, pacing, notes);
        await Promise.all([1, 2, 3].map(() => request(s, m)));
        // The dead requests may have reached the server until their lease ran out: nothing before a window
        // after that; and every request went in the end (the dead entries hold nothing for ever).
        expect(Math.min(...s.seen.map((q) => performance.timeOrigin + q.at))).toBeGreaterThanOrEqual(
          lease + pacing.windowMs - 2,
        );
        expect(s.seen).toHaveLength(3);
        expect(notes).toEqual([]);
        await expect
          .poll(() => Object.keys((JSON.parse(r.cli('get', key)) as SharedState).flight), POLL)
          .toEqual([]);
      });

      full?.('nothing in Redis carries the API key, and every key has a time to live', async () => {
        const r = await redis(kind);
        const s = await sessionServer();
        const m = machine(s.url, r.url);
        m.register();
        await request(s, m);
        // The request's end is written after its answer: wait for it to be there, not for a time.
        await until(() => r.cli('get', budgetKey(new URL(s.url).origin, KEY)).includes('"ended"'));
        const keys = r.cli('--scan', '--pattern', '*').trim().split('\n').filter(Boolean);
        expect(keys).toEqual([budgetKey(new URL(s.url).origin, KEY)]);
        expect(keys[0]!.startsWith(KEY_PREFIX)).toBe(true);
        expect(keys[0]).not.toContain(KEY);
        const value = r.cli('get', keys[0]!);
        expect(value).toContain('"ended"');
        expect(value).not.toContain(KEY);
        expect(Number(r.cli('pttl', keys[0]!))).toBeGreaterThan(0);
      });

      full?.('a reply that came while the process stalled is read, not taken for a time-out', async () => {
        const r = await redis(kind);
        const { Redis } = await import('ioredis');
        const client = new Redis(r.url, { lazyConnect: true });
        await client.connect();
        try {
          const reply = answer(client.ping(), 20);
          // Busy past the time-out (a machine that did not run us): the answer arrives meanwhile, and the
          // timer is due before it is read.
          const until = performance.now() + 200;
          while (performance.now() < until);
          await expect(reply).resolves.toBe('PONG');
        } finally {
          client.disconnect();
        }
      });

      full?.(
        'a store that cannot be reached: one warning, the machine budget, every request still made',
        async () => {
          const s = await sessionServer();
          const notes: string[] = [];
          const m = machine(s.url, `redis://:hunter2@127.0.0.1:${await freePort()}`, undefined, notes);
          for (let i = 0; i < 4; i++) await request(s, m);
          expect(s.seen).toHaveLength(4);
          expect(notes).toHaveLength(1);
          expect(notes[0]).toMatch(
            /^fallback: .*redis:\/\/127\.0\.0\.1:\d+.*this machine's budget until it answers again$/,
          );
          expect(notes[0]).not.toContain('hunter2');
          expect(m.fellBack).toBe(true);
        },
      );

      it('a store lost mid-way: one warning, requests go on; when it comes back it is joined again', async () => {
        const r = await redis(kind);
        const s = await sessionServer();
        const notes: string[] = [];
        const m = machine(s.url, r.url, { limit: 50, windowMs: 200 }, notes);
        await request(s, m);
        await r.kill();
        for (let i = 0; i < 3; i++) await request(s, m);
        expect(notes.filter((n) => n.startsWith('fallback'))).toHaveLength(1);
        await r.restart();
        // The store is tried again a while after it failed (rejoinMs, here short); a request then uses it.
        let made = 4;
        await expect
          .poll(
            async () => {
              await request(s, m);
              made += 1;
              return m.fellBack;
            },
            { interval: 50, timeout: 10_000 },
          )
          .toBe(false);
        expect(notes.filter((n) => n.startsWith('fallback'))).toHaveLength(1);
        expect(notes.at(-1), notes.join('\n')).toMatch(/^rejoin: /);
        expect(r.cli('--scan', '--pattern', `${KEY_PREFIX}*`).trim()).not.toBe('');
        expect(s.seen).toHaveLength(made);
      });

      it('garbage under our key is treated like a lost store', async () => {
        const r = await redis(kind);
        const s = await sessionServer();
        r.cli('set', budgetKey(new URL(s.url).origin, KEY), 'not a budget');
        const notes: string[] = [];
        const m = machine(s.url, r.url, undefined, notes);
        await request(s, m);
        await request(s, m);
        expect(s.seen).toHaveLength(2);
        expect(notes).toHaveLength(1);
        expect(notes[0]).toContain('holds something that is not a budget');
      });

      full?.(
        'agents with AGENTS_BUDGET_URL: the password reaches no output, no --debug line and no file',
        async () => {
          const r = await redis(kind, 'pa55-w0rd');
          const f = await fixture({}, { AGENTS_BUDGET_URL: r.url });
          const state = tempDir();
          const env = { ...f.env, AGENTS_STATE_DIR: state };
          const c = await f.run(['create', '-a', 'claude', '--wait', '--debug', '[[reply:done]] go'], {
            env,
            tuning: { pacing: { limit: 100, windowMs: 60_000 } },
          });
          expect(c.code, c.stderr).toBe(0);
          expect(c.stdout).toBe('done');
          const wrong = await f.run(['show', 'last', '--debug'], {
            env: { ...env, AGENTS_BUDGET_URL: r.url.replace('pa55-w0rd', 'not-it-either') },
            tuning: { pacing: { limit: 100, windowMs: 60_000 } },
          });
          expect(wrong.code).toBe(0);
          expect(wrong.stderr, wrong.stderr).toContain('authentication failed');
          const files = readdirSync(state, { recursive: true }).map(String);
          for (const out of [c.stdout, c.stderr, wrong.stdout, wrong.stderr]) {
            expect(out).not.toContain('pa55-w0rd');
            expect(out).not.toContain('not-it-either');
          }
          for (const file of files) {
            const path = join(state, file);
            let text = '';
            try {
              text = readFileSync(path, 'utf8');
            } catch {
              continue; // a directory
            }
            expect(text).not.toContain('pa55-w0rd');
          }
          // The budget was kept in Redis.
          expect(r.cli('--scan', '--pattern', `${KEY_PREFIX}*`).trim()).not.toBe('');
        },
      );
    },
  );
}
