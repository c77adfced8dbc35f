// `npm test` says which tests it skipped and why (issue 46): vitest run on a small suite of its own, with
// the project's reporters, names each skipped group and its reason after the summary.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import { ROOT } from '../support/run-cli.js';

// Inside the checkout, so that the suite's `import … from 'vitest'` resolves; .test-build is ignored by git.
mkdirSync(join(ROOT, '.test-build'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.test-build', 'skip-reporter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SUITE = `import { describe, expect, it } from 'vitest';
describe.skip('the one-file executable (skipped: run \`npm run build:binary\` first)', () => {
  it('runs', () => expect(1).toBe(1));
  it('installs', () => expect(1).toBe(1));
});
describe('completion', () => {
  it.skip('zsh (skipped: needs zsh: apt-get install zsh)', () => expect(1).toBe(1));
  it('bash', () => expect(1).toBe(1));
});
`;

function vitest(root: string): Promise<{ code: number | null; out: string }> {
  // The run's own vitest variables would make the child think it is one of this run's workers.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--root',
      root,
      '--config',
      join(root, 'vitest.config.mjs'),
    ],
    { cwd: root, env: { ...env, NO_COLOR: '1', CI: '1' } },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe('the skipped tests of a run, and why', () => {
  it('the project runs the reporter beside the default one', () => {
    expect(config.test?.reporters).toEqual(['default', './test/support/skip-reporter.ts']);
  });

  it('after the summary, each skipped group with its file, its count and its reason', async () => {
    writeFileSync(join(dir, 'some.test.ts'), SUITE);
    const reporters = ['default', join(ROOT, 'test/support/skip-reporter.ts')];
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { include: ['*.test.ts'], reporters: ${JSON.stringify(reporters)} } };\n`,
    );
    const r = await vitest(dir);
    expect(r.code, r.out).toBe(0);
    const tail = r.out.slice(r.out.indexOf('Tests'));
    expect(tail).toMatch(/Tests +1 passed \| 3 skipped/);
    expect(tail).toContain(
      [
        ' Skipped, and why:',
        '   some.test.ts > the one-file executable (2 tests): run `npm run build:binary` first',
        '   some.test.ts > completion > zsh (1 test): needs zsh: apt-get install zsh',
      ].join('\n'),
    );
  });
});
