// Concurrent `config set` and `config unset`: writers of one key, then of five profiles side by side, at once.
// Afterwards the file must parse as JSON, hold one written value for each, be 0600, and be alone in its
// directory (no temporary or lock file). Every writer must succeed.
// These stay on the built binary (this run's private build, BIN): separate processes racing for one file is
// what is under test, which runs in one process would not show. One test a file, so that the three files of
// concurrent writers (concurrent-*.test.ts, about 60 processes in all) run on different workers.
import { describe, expect, it } from 'vitest';
import { cliEnv } from '../support/run-cli.js';
import { all, checkFile, expectAllOk } from '../support/concurrent.js';

describe('concurrent config set on one key, and on many profiles', () => {
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
