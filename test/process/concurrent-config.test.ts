// Concurrent `config set` on one profile: many `agents` processes at once writing the same config profile,
// as parallel CI steps or a setup script with `&` do. Afterwards the file must parse as JSON, hold values one
// of the writers wrote, be readable by its owner alone (0600), and no temporary or lock file may be left
// behind. Every writer must succeed.
// These stay on the built binary (this run's private build, BIN): separate processes racing for one file is
// what is under test, which runs in one process would not show. One test a file, so that the three files of
// concurrent writers (concurrent-*.test.ts, about 60 processes in all) run on different workers.
import { describe, expect, it } from 'vitest';
import { cliEnv } from '../support/run-cli.js';
import { AGENTS, all, checkFile, expectAllOk } from '../support/concurrent.js';

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
});
