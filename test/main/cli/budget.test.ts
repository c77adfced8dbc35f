// agents budget reads the key's budget where the processes that use it keep it, never from the service:
// no state is one line and exit 0; beside two processes waiting on one key (limiters made as separate
// processes make them, sharing this machine's file) its counts are the store's; a real `create --wait`
// run names itself there; --watch gives a line of NDJSON a reading, drawn over in place at a terminal.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { fileLimiter, SharedLimiter } from '../../../src/core/budget/shared.js';
import { RedisStore } from '../../../src/core/budget/redis-store.js';
import { redisSkipReason, startRedis } from '../../support/redis.js';
import { stateFileName, type SharedState } from '../../../src/core/budget/state.js';
import { ownEmulator } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { cliEnv } from '../../support/run-cli.js';
import { FAST_TUNING, runMain, type RunHandle } from '../../support/main.js';
import { stopWhen, until } from '../../support/fixture.js';

let em: RunningEmulator;
beforeAll(async () => {
  em = await ownEmulator();
});
afterAll(async () => {
  await em.close();
});

/** A run's environment: the emulator's key, this test's own state directory (cliEnv's config dir). */
function setup(extra: NodeJS.ProcessEnv = {}) {
  const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...extra });
  const dir = join(env.AGENTS_CONFIG_DIR ?? '', 'pacing');
  const file = join(dir, stateFileName(new URL(em.url).origin, KEY));
  const state = () => JSON.parse(readFileSync(file, 'utf8')) as SharedState;
  return { env, dir, state };
}

const served = () => em.stats().requests;

describe('agents budget', () => {
  it('no state for the key: one line, exit 0, and no request to the service', async () => {
    const { env } = setup();
    const before = served();
    const r = await runMain(['budget'], { env });
    expect([r.code, r.stdout]).toEqual([0, 'no process has used this key on this machine\n']);
    const j = await runMain(['budget', '--json'], { env });
    expect(JSON.parse(j.stdout)).toMatchObject({ origin: new URL(em.url).origin, fleet: false, used: null });
    expect(served()).toBe(before);
  });

  it('beside two processes waiting on one key: the window, the queue by command, the next slot and the 429s are the store’s', async () => {
    const { env, dir, state } = setup({ AGENTS_RATE_LIMIT: '3' });
    const pacing = { limit: 3, windowMs: 60_000 };
    const origin = new URL(em.url).origin;
    const as = (label: string) => fileLimiter(origin, KEY, pacing, { dir, label, leaseMs: 60_000 });
    const [a, b, spent] = [as('create --wait'), as('mcp'), as('show')];
    // The window spent by a third process (done since): three requests, one of them refused with 429.
    for (const refused of [false, false, true]) (await spent.acquire())(true, refused);
    const stop = new AbortController();
    const waiting = [a.acquire(stop.signal), b.acquire(stop.signal), b.acquire(stop.signal)].map((p) =>
      p.catch(() => undefined),
    );
    const poll = b.register();
    await until(() => Object.keys(state().queue).length === 3 && Object.keys(state().waiters).length === 1);
    const before = served();
    const r = await runMain(['budget', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const seen = state();
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      used: seen.ended.length + Object.keys(seen.flight).length,
      queued: Object.keys(seen.queue).length,
      polling: 1,
      rate_limited_last_hour: seen.refused?.length,
      processes: [
        { command: 'mcp', queued: 2, polling: 1, in_flight: 0 },
        { command: 'create --wait', queued: 1, polling: 0, in_flight: 0 },
      ],
    });
    expect(seen.refused).toHaveLength(1);
    expect(Date.parse(String(out.next_free_at))).toBeGreaterThan(Date.parse(String(out.at)));
    const text = await runMain(['budget'], { env });
    expect(text.stdout).toContain('  waiting for a slot     3 requests, from 2 processes\n');
    expect(text.stdout).toContain('    mcp: 2 requests waiting for a slot, 1 wait polling\n');
    expect(text.stdout).toContain('    create --wait: 1 request waiting for a slot\n');
    expect(text.stdout).toContain('  429s in the last hour  1\n');
    expect(served()).toBe(before);
    poll.close();
    stop.abort();
    await Promise.all(waiting);
  });

  it('a real create --wait names itself with its option names; --watch is NDJSON in a pipe, drawn over at a terminal', async () => {
    const { env, state } = setup();
    const tuning = { ...FAST_TUNING, pacing: { limit: 100, windowMs: 60_000 } };
    const named = (s: SharedState) => Object.values(s.who ?? {}).includes('create --agent --wait');
    let waiting: RunHandle | undefined;
    const waitRun = runMain(['create', '-a', 'claude', '--wait', '[[think:600000]] take your time'], {
      env,
      tuning,
      onStart: (run) => (waiting = run),
    });
    // Named in the store, and polling.
    await until(() => {
      try {
        return named(state()) && Object.keys(state().waiters).length === 1;
      } catch {
        return false;
      }
    });
    const watched = await runMain(['budget', '--watch'], {
      env,
      tuning: { ...FAST_TUNING, watchMs: 1 },
      onStart: stopWhen((run) => run.stdout.split('\n').length > 3, 'SIGINT'),
    });
    expect(watched.code).toBe(130);
    const lines = watched.stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('origin', new URL(em.url).origin);
    expect(lines.map((l) => JSON.parse(l) as { processes: unknown[] })[0]?.processes).toContainEqual(
      expect.objectContaining({ command: 'create --agent --wait' }),
    );
    const drawn = await runMain(['budget', '--watch'], {
      env,
      tty: { stdout: true },
      tuning: { ...FAST_TUNING, watchMs: 1 },
      onStart: stopWhen((run) => run.stdout.includes('\u001b[0J'), 'SIGINT'),
    });
    expect(drawn.code).toBe(130);
    // Each reading after the first goes up over the last (7 lines) and clears below before it is drawn.
    const readings = drawn.stdout.split('\u001b[7F\u001b[0J');
    expect(readings.length).toBeGreaterThanOrEqual(2);
    for (const r of readings) expect(r.split('\n')).toHaveLength(8);
    waiting?.kill('SIGINT');
    expect((await waitRun).code).toBe(130);
  });

  it('a broken budget file, or a file where its lock goes: repaired, the copy kept, and said; a newer version’s file is left alone, with what to do', async () => {
    const { env, dir, state } = setup();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, stateFileName(new URL(em.url).origin, KEY));
    const copies = () => readdirSync(dir).filter((f) => f.includes('.broken-'));
    writeFileSync(file, 'garbage');
    writeFileSync(`${file}.lock`, 'left here');
    const r = await runMain(['budget'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Key of http:.*: this machine/);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines).toContainEqual(
      expect.stringMatching(/a file stood where the lock .* goes: moved it to .*\.lock\.broken-/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /could not be used \(it is not JSON\): replaced it, the broken one kept at .*\.json\.broken-/,
      ),
    );
    expect(
      copies()
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .sort(),
    ).toEqual(['garbage', 'left here']);
    expect(state()).toMatchObject({ v: 1, ended: [] });
    // Sound now: looking again repairs nothing and says nothing.
    const again = await runMain(['budget'], { env });
    expect([again.code, again.stderr, copies()]).toEqual([0, '', copies()]);
    // A newer version's file is not this version's to replace: exit 1, and what to do.
    writeFileSync(file, JSON.stringify({ v: 2 }));
    const newer = await runMain(['budget'], { env });
    expect(newer.code).toBe(1);
    expect(newer.stderr).toMatch(
      /could not read the budget: a newer version of agents wrote it.*hint: .*agents budget/s,
    );
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify({ v: 2 }));
  });

  const noRedis = redisSkipReason();
  it.skipIf(noRedis !== undefined)(
    `with a Redis budget: the fleet's state, read from Redis alone${noRedis ? ` (skipped: ${noRedis})` : ''}`,
    async () => {
      const r = await startRedis();
      try {
        const { env } = setup({ AGENTS_BUDGET_URL: r.url });
        const origin = new URL(em.url).origin;
        const none = await runMain(['budget'], { env });
        expect([none.code, none.stdout]).toEqual([0, 'no process has used this key in this fleet\n']);
        // A machine of the fleet polling on the key.
        const store = new RedisStore(r.url, origin, KEY);
        const fleet = new SharedLimiter({ limit: 100, windowMs: 60_000 }, store, { label: 'wait' });
        const poll = fleet.register();
        (await fleet.acquire())(true);
        await until(async () => Object.keys((await store.peek()).waiters).length === 1);
        const before = served();
        const out = await runMain(['budget', '--json'], { env });
        expect(out.code, out.stderr).toBe(0);
        expect(JSON.parse(out.stdout)).toMatchObject({
          fleet: true,
          store: r.url,
          used: 1,
          polling: 1,
          processes: [{ command: 'wait', polling: 1, queued: 0 }],
        });
        expect(served()).toBe(before);
        poll.close();
      } finally {
        await r.stop();
      }
    },
  );
});
