// docs/terminal.md's rehearsal of agents checkout, run as written: its block of shell (with the emulator's
// port and a directory of the test's own for /tmp) under sh, the built `agents` on the PATH, real git. A
// change that breaks a line of it (the [[pr:URL]] directive, the url.<base>.insteadOf clone, the
// fast-forward) fails here, not in a reader's terminal.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ownEmulator } from '../support/emulator.js';
import { BIN, ROOT, cliEnv } from '../support/run-cli.js';
import { GIT_ENV, git } from '../support/git-fixture.js';

/** The ```sh block of docs/terminal.md that holds the `[[pr:` directive. */
function rehearsal(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'terminal.md'), 'utf8');
  const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const found = blocks.filter((b) => b.includes('[[pr:'));
  expect(found).toHaveLength(1);
  return found[0] ?? '';
}

let em: RunningEmulator;
beforeAll(async () => {
  em = await ownEmulator();
});
afterAll(async () => {
  await em.close();
});

describe("docs/terminal.md's checkout rehearsal", () => {
  it('runs as written against the built CLI: the pull request on its branch, then moved forward', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agents-rehearsal-'));
    // `agents` as a reader has it: on the PATH.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'agents'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    chmodSync(join(bin, 'agents'), 0o755);
    const script = rehearsal().replaceAll('http://127.0.0.1:4010', em.url).replaceAll('/tmp/', `${dir}/`);
    const env = cliEnv({ ...GIT_ENV, PATH: `${bin}:${process.env.PATH ?? ''}` });
    // Not spawnSync: the emulator answers from this process's event loop. Throws (with sh's stderr) on exit ≠ 0.
    const r = await promisify(execFile)('sh', ['-e', '-c', script], { cwd: dir, env, encoding: 'utf8' });

    const app = join(dir, 'acme-app');
    const branch = git(app, 'symbolic-ref', '--short', 'HEAD');
    expect(branch).toMatch(/^agents\/[0-9a-f]{8}-pr1$/);
    const head = git(join(dir, 'acme.git'), 'rev-parse', 'refs/pull/1/head');
    expect(git(app, 'rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(join(app, 'app.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    const [first, second] = r.stdout.split('\n').filter((l) => l.startsWith(branch));
    expect(first).not.toBe(`${branch} ${head}`);
    expect(second).toBe(`${branch} ${head}`);
    expect(r.stdout).toContain(' app.txt | 1 +\n');
    expect(r.stderr).toMatch(/Switched to a new branch agents\/.*\n[\s\S]*moved from [0-9a-f]{7} to /);
  });
});
