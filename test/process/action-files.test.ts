// The Action's files: action.yml and the workflow that runs it checked by a real validator, and the committed
// bundle (dist-action/index.mjs, what a runner runs) the same, byte for byte, as a build of the sources.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_MAIN, COMMITTED_MAIN } from '../support/action.js';
import { ROOT } from '../support/run-cli.js';

const VALIDATOR = join(ROOT, 'node_modules', '.bin', 'action-validator');

function validate(file: string) {
  return spawnSync(VALIDATOR, [file], { encoding: 'utf8' });
}

describe("the Action's files", () => {
  it('action.yml passes @action-validator/cli, and runs node24 from the committed bundle', () => {
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(text).toMatch(/^runs:\n {2}using: 'node24'\n {2}main: 'dist-action\/index\.mjs'\n/m);
    // The validator's schema (0.6.0, its latest) stops at node20; everything else is checked as written.
    const copy = join(mkdtempSync(join(tmpdir(), 'agents-action-yml-')), 'action.yml');
    writeFileSync(copy, text.replace("using: 'node24'", "using: 'node20'"));
    const r = validate(copy);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    // …and it does find what is wrong.
    writeFileSync(copy, text.replace('inputs:', 'inputz:'));
    expect(validate(copy).status).not.toBe(0);
  });

  it('every workflow in .github/workflows passes @action-validator/cli', () => {
    const dir = join(ROOT, '.github', 'workflows');
    const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const r = validate(join(dir, f));
      expect(r.stdout + r.stderr, f).toBe('');
      expect(r.status, f).toBe(0);
    }
  });

  it("bundles GitHub's toolkit without the undici of its own HTTP client, which the Action never calls", () => {
    // @actions/core imports @actions/http-client, and so a second undici (v6, beside the library's): the
    // build leaves out what nothing calls (scripts/toolkit-side-effects.mjs), 571 KB of 2 MB.
    const text = readFileSync(ACTION_MAIN, 'utf8');
    expect(text).toContain('ghadelimiter_');
    expect(text.split('formdata-undici-0').length - 1).toBeLessThanOrEqual(1);
  });

  it('the committed bundle is what building the sources makes (rebuild with npm run build, and commit it)', () => {
    // ACTION_MAIN was built from the sources for this test run (test/support/global-setup.ts).
    expect(ACTION_MAIN).not.toBe(COMMITTED_MAIN);
    const built = readFileSync(ACTION_MAIN);
    const committed = readFileSync(COMMITTED_MAIN);
    expect(committed.length, 'dist-action/index.mjs is stale: run npm run build:action and commit it').toBe(
      built.length,
    );
    expect(
      committed.equals(built),
      'dist-action/index.mjs is stale: run npm run build:action and commit it',
    ).toBe(true);
  });
});
