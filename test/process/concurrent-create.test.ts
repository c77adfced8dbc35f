// Concurrent `create` (the `last` state) beside config writers: many `agents` processes at once, in four
// profiles. Afterwards the state, the config and the request budget's file must parse as JSON, be 0600, and
// no temporary or lock file may be left behind; each profile's `last` is a session that profile created.
// These stay on the built binary (this run's private build, BIN): separate processes racing for one file is
// what is under test, which runs in one process would not show. One test a file, so that the three files of
// concurrent writers (concurrent-*.test.ts, about 60 processes in all) run on different workers.
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cliEnv } from '../support/run-cli.js';
import { KEY } from '../support/key.js';
import { ownEmulator } from '../support/emulator.js';
import { AGENTS, all, checkFile, expectAllOk } from '../support/concurrent.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

describe('concurrent create (the `last` state) beside config writers', () => {
  it('16 creates in 4 profiles and 4 config writers at once: state and config valid, 0600, each `last` a session its profile created', async () => {
    const em = await ownEmulator();
    emulators.push(em);
    const dir = cliEnv().AGENTS_CONFIG_DIR ?? '';
    const env = { AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY };
    const profiles = ['p0', 'p1', 'p2', 'p3'];
    const creates = Array.from({ length: 16 }, (_, i) => ({
      args: ['--profile', profiles[i % 4] ?? 'p0', 'create', '-a', 'claude', `hello ${i}`],
      env,
    }));
    const sets = AGENTS.slice(0, 4).map((a, i) => ({
      args: ['--profile', profiles[i] ?? 'p0', 'config', 'set', 'agent', a],
      env,
    }));
    const results = await all(dir, [...creates, ...sets]);
    expectAllOk(results);
    expect(em.stats().byRoute).toMatchObject({ 'POST /sessions': 16 });

    // The ids each profile's creates printed.
    const created = new Map<string, string[]>();
    results.slice(0, 16).forEach((r, i) => {
      const id = r.stdout.trim();
      expect(id).toMatch(UUID);
      const p = profiles[i % 4] ?? 'p0';
      created.set(p, [...(created.get(p) ?? []), id]);
    });

    // The request budget the creates shared: one file for the emulator's origin and key, 0600 in a 0700
    // directory, no lock or temporary file left behind.
    const pacing = join(dir, 'pacing');
    expect(statSync(pacing).mode & 0o777).toBe(0o700);
    const [budget, ...more] = readdirSync(pacing);
    expect(more).toEqual([]);
    expect(budget).toMatch(/^127\.0\.0\.1_\d+-[0-9a-f]{24}\.json$/);
    checkFile(pacing, budget ?? '');

    const state = checkFile(dir, 'state.json', ['config.json', 'pacing']) as {
      version: number;
      last: Record<string, { id: string; at: string }>;
    };
    expect(state.version).toBe(1);
    const recorded = Object.keys(state.last);
    // Under the state's lock no profile's entry is dropped by another profile's write.
    expect(recorded.sort()).toEqual([...created.keys()].sort());
    for (const p of recorded) {
      expect(created.get(p)).toContain(state.last[p]?.id);
      expect(Number.isNaN(Date.parse(state.last[p]?.at ?? ''))).toBe(false);
    }
    const config = checkFile(dir, 'config.json', ['state.json', 'pacing']) as {
      profiles: Record<string, Record<string, string>>;
    };
    expect(Object.fromEntries(Object.entries(config.profiles).map(([p, v]) => [p, v.agent]))).toEqual({
      p0: 'claude',
      p1: 'codex',
      p2: 'gemini',
      p3: 'opencode',
    });
  });
});
