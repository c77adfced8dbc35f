// Concurrent writes: many `agents` processes at once writing the same config profile (`config set`) and the
// `last` state (`create`), as parallel CI steps or a setup script with `&` do. Afterwards both files must
// parse as JSON, hold values one of the writers wrote, be readable by their owner alone (0600), and no
// temporary or lock file may be left behind. Every writer must succeed. These stay on the built binary
// (this run's private build, BIN): separate processes racing for one file is what is under test, which
// runs in one process would not show. About 60 processes in all, no more, to keep the file quick.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cliEnv, runCli, type CliResult } from '../support/run-cli.js';
import { KEY } from '../support/key.js';
import { ownEmulator } from '../support/emulator.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'cursor', 'kimi'];

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

/**
 * Runs every command at once in one config dir; resolves when all have ended. Twenty processes starting
 * together on two busy cores may take a while: the kill is a safety net for a hang, never a time limit.
 */
function all(dir: string, runs: { args: string[]; env?: NodeJS.ProcessEnv }[]): Promise<CliResult[]> {
  return Promise.all(
    runs.map((r) =>
      runCli(r.args, {
        env: cliEnv({ AGENTS_CONFIG_DIR: dir, ...r.env }),
        closeStdin: true,
        killAfterMs: 90_000,
      }),
    ),
  );
}

function expectAllOk(results: CliResult[]): void {
  const failed = results.filter((r) => r.code !== 0).map((r) => ({ code: r.code, stderr: r.stderr }));
  expect(failed).toEqual([]);
}

/** The file parses as JSON, is 0600, and sits alone (no temp or lock files) with `others`. */
function checkFile(dir: string, name: string, others: string[] = []): unknown {
  const path = join(dir, name);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir).sort()).toEqual([name, ...others].sort());
  return JSON.parse(readFileSync(path, 'utf8'));
}

describe('concurrent config set on one profile', () => {
  it('18 writers, three keys: every key ends with a value one of its writers wrote', async () => {
    const dir = cliEnv().AGENTS_CONFIG_DIR ?? '';
    const keys = [1, 2, 3, 4, 5, 6].map((i) => `key-${i}-${'x'.repeat(i)}`);
    const urls = [1, 2, 3, 4, 5, 6].map((i) => `https://h${i}.agents.example.com`);
    const results = await all(dir, [
      ...keys.map((k) => ({ args: ['config', 'set', 'api-key', k] })),
      ...urls.map((u) => ({ args: ['config', 'set', 'base-url', u] })),
      ...AGENTS.map((a) => ({ args: ['config', 'set', 'agent', a] })),
    ]);
    expectAllOk(results);
    const config = checkFile(dir, 'config.json') as { profiles: Record<string, Record<string, string>> };
    expect(Object.keys(config.profiles)).toEqual(['default']);
    const profile = config.profiles.default ?? {};
    // Each writer was told "Set …": so no key may be missing, and each holds a value written for it.
    expect(Object.keys(profile).sort()).toEqual(['agent', 'api-key', 'base-url']);
    expect(keys).toContain(profile['api-key']);
    expect(urls).toContain(profile['base-url']);
    expect(AGENTS).toContain(profile.agent);
  });

  it('15 writers of the same key, then 5 profiles side by side: one written value each, nothing lost', async () => {
    const dir = cliEnv().AGENTS_CONFIG_DIR ?? '';
    const values = Array.from({ length: 15 }, (_, i) => `https://writer-${i}.agents.example.com`);
    expectAllOk(
      await all(
        dir,
        values.map((v) => ({ args: ['config', 'set', 'base-url', v] })),
      ),
    );
    const one = checkFile(dir, 'config.json') as { profiles: Record<string, Record<string, string>> };
    expect(values).toContain(one.profiles.default?.['base-url']);

    // Set and unset at once across five profiles: each profile's own writers decide its content.
    const names = ['a', 'b', 'c', 'd', 'e'];
    expectAllOk(
      await all(dir, [
        ...names.map((p) => ({ args: ['--profile', p, 'config', 'set', 'agent', 'codex'] })),
        ...names.map((p) => ({ args: ['--profile', p, 'config', 'set', 'api-key', `k-${p}`] })),
        { args: ['config', 'unset', 'base-url'] },
      ]),
    );
    const many = checkFile(dir, 'config.json') as { profiles: Record<string, Record<string, string>> };
    expect(Object.keys(many.profiles).sort()).toEqual(names);
    for (const p of names) expect(many.profiles[p]).toEqual({ agent: 'codex', 'api-key': `k-${p}` });
  });
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
