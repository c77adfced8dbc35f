// agents checkout and agents diff against a repository of the test's own (test/support/git-fixture.ts:
// a bare repository standing for GitHub, clones whose origin is GitHub's address redirected to it). The
// emulator gives the sessions their pull requests (the live dialect: {url, status} objects).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { ownEmulator } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { cliEnv } from '../../support/run-cli.js';
import { RecordingSpawner, runMain, type MainOptions } from '../../support/main.js';
import { until } from '../../support/until.js';
import {
  GIT_ENV,
  git,
  gitFixture,
  snapshot,
  type GitFixture,
  sessionWith as sessionWithPullRequests,
} from '../../support/git-fixture.js';

const PR12 = 'https://github.com/acme/app/pull/12';
const PR13 = 'https://github.com/acme/app/pull/13';

let em: RunningEmulator;
let env: NodeJS.ProcessEnv;
let repo: GitFixture;
const clone = (origin?: string) => repo.clone(origin);
const pushCommit = (from: string, file: string, text: string, ref: string) =>
  repo.pushCommit(from, { [file]: text }, ref);

const run = (args: string[], cwd: string, o: MainOptions = {}) => runMain(args, { env, cwd, ...o });

/** A session of the emulator with these pull requests. */
const sessionWith = (...prs: string[]) => sessionWithPullRequests(em, env, ...prs);

let head12 = '';
let head13 = '';

beforeAll(async () => {
  em = await ownEmulator({ dialect: 'live' });
  env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...GIT_ENV });
  repo = gitFixture();
  head12 = pushCommit(repo.main0, 'app.txt', 'one\ntwo\n', 'refs/pull/12/head');
  head13 = pushCommit(repo.main0, 'other.txt', 'other\n', 'refs/pull/13/head');
});

afterAll(async () => {
  await em.close();
});

describe('agents checkout', () => {
  it('puts the pull request on agents/<8>-pr12 and switches to it; after a new push, a second run moves it', async () => {
    const id = await sessionWith(PR12);
    const dir = clone();
    const r = await run(['checkout', id, '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    const branch = `agents/${id.slice(0, 8)}-pr12`;
    expect(JSON.parse(r.stdout)).toEqual({
      session_id: id,
      pull_request: PR12,
      remote: 'origin',
      branch,
      commit: head12,
    });
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe(branch);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head12);
    expect(readFileSync(join(dir, 'app.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(git(dir, 'config', `branch.${branch}.agents-session`)).toBe(id);
    expect(git(dir, 'config', `branch.${branch}.merge`)).toBe('refs/pull/12/head');

    // The agent pushes again: the same command moves the branch to the new head.
    const next = pushCommit(head12, 'app.txt', 'one\ntwo\nthree\n', 'refs/pull/12/head');
    const again = await run(['checkout', id], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${branch} ${next}\n`);
    expect(again.stderr).toContain(`moved from ${head12.slice(0, 7)} to ${next.slice(0, 7)}`);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(next);
    expect(readFileSync(join(dir, 'app.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    // Back as the other tests expect it.
    git(repo.bare, 'update-ref', 'refs/pull/12/head', head12);
  });

  it('refuses, changing nothing, with exit 2: outside a clone, with uncommitted changes, with no remote naming the repository', async () => {
    const id = await sessionWith(PR12);
    const outside = mkdtempSync(join(tmpdir(), 'agents-not-a-clone-'));
    const before = em.stats().byRoute['GET /sessions/:id'] ?? 0;
    const r1 = await run(['checkout', id], outside);
    expect([r1.code, r1.stdout]).toEqual([2, '']);
    expect(r1.stderr).toMatch(/^error: not in a git clone: fatal: not a git repository/);
    // Refused before the session was read: no request; at a terminal, before a session is asked for.
    expect(em.stats().byRoute['GET /sessions/:id'] ?? 0).toBe(before);
    const asked = await run(['checkout'], outside, { tty: { stdin: true, stdout: true, stderr: true } });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(/^error: not in a git clone/);

    const dirty = clone();
    writeFileSync(join(dirty, 'app.txt'), 'changed\n');
    const dirtyBefore = snapshot(dirty);
    const r2 = await run(['checkout', id], dirty);
    expect([r2.code, r2.stdout]).toEqual([2, '']);
    expect(r2.stderr).toContain('error: the clone has uncommitted changes (1 file)');
    expect(r2.stderr).toContain('hint: commit or stash them first');
    expect(snapshot(dirty)).toEqual(dirtyBefore);

    const elsewhere = clone('https://github.com/someone/else.git');
    const elsewhereBefore = snapshot(elsewhere);
    const r3 = await run(['checkout', id], elsewhere);
    expect([r3.code, r3.stdout]).toEqual([2, '']);
    expect(r3.stderr).toContain('error: no remote of this clone names github.com/acme/app');
    expect(r3.stderr).toContain('hint: add one: git remote add acme https://github.com/acme/app.git');
    expect(snapshot(elsewhere)).toEqual(elsewhereBefore);
  });

  it('refuses a branch it did not make (exit 2, nothing changed) unless --force; --branch names another', async () => {
    const id = await sessionWith(PR12);
    const dir = clone();
    const branch = `agents/${id.slice(0, 8)}-pr12`;
    git(dir, 'branch', branch);
    const before = snapshot(dir);
    const refused = await run(['checkout', id], dir);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toContain(
      `error: the branch ${branch} exists and agents checkout did not make it`,
    );
    expect(snapshot(dir)).toEqual(before);

    const named = await run(['checkout', id, '--branch', 'try-it'], dir);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toBe(`try-it ${head12}\n`);
    const forced = await run(['checkout', id, '--force'], dir);
    expect(forced.code, forced.stderr).toBe(0);
    expect(git(dir, 'rev-parse', branch)).toBe(head12);
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe(branch);
  });

  it('no pull request yet: exit 4 with the wait hint; a merge request of GitLab: exit 2 naming it', async () => {
    const dir = clone();
    const before = snapshot(dir);
    const none = await sessionWith();
    const r = await run(['checkout', none], dir);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`error: session ${none} has no pull request yet`);
    expect(r.stderr).toContain(`hint: wait for the agent to open one: agents wait ${none}`);
    const gitlab = 'https://gitlab.com/acme/app/-/merge_requests/3';
    const r2 = await run(['checkout', await sessionWith(gitlab)], dir);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(
      `error: the pull request "${gitlab}" is not on a host agents can read with git`,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it('--pr picks among several; without it a script gets exit 2 naming them', async () => {
    const id = await sessionWith(PR12, PR13);
    const dir = clone();
    const r = await run(['checkout', id], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: session ${id} has 2 pull requests: ${PR12}, ${PR13}`);
    expect(r.stderr).toContain('hint: pick one with --pr N or --pr URL');
    const missing = await run(['checkout', id, '--pr', '99'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`has no pull request #99; it has ${PR12}, ${PR13}`);
    const byNumber = await run(['checkout', id, '--pr', '13', '--json'], dir);
    expect(byNumber.code, byNumber.stderr).toBe(0);
    expect(JSON.parse(byNumber.stdout)).toMatchObject({ pull_request: PR13, commit: head13 });
    const byUrl = await run(['checkout', id, '--pr', PR12.toUpperCase().replace('HTTPS', 'https')], dir);
    expect(byUrl.code, byUrl.stderr).toBe(0);
    expect(byUrl.stdout).toBe(`agents/${id.slice(0, 8)}-pr12 ${head12}\n`);
    // At a terminal: a list to choose from, the last listed first; the second is chosen with ↓ and Enter.
    const chosen = await run(['checkout', id], dir, {
      tty: { stdin: true, stdout: true, stderr: true },
      idleStdin: true,
      onStart: (r) => void until(() => r.stderr.includes(PR12)).then(() => r.stdin.write('\u001b[B\r')),
    });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stderr).toMatch(/Pull request:[\s\S]*❯ https:\/\/github\.com\/acme\/app\/pull\/13\n/);
    expect(chosen.stdout).toBe(`agents/${id.slice(0, 8)}-pr12 ${head12}\n`);
    const bad = await run(['checkout', id, '--pr', 'twelve'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: not a pull request: "twelve"');
  });
});

describe('agents diff', () => {
  it('--stat, --name-only and the patch against the default branch, in a pipe; git itself at a terminal', async () => {
    const id = await sessionWith(PR12);
    const dir = clone();
    const stat = await run(['diff', id, '--stat'], dir);
    expect(stat.code, stat.stderr).toBe(0);
    expect(stat.stdout).toMatch(/^ app\.txt \| 1 \+\n 1 file changed, 1 insertion\(\+\)\n$/);
    const names = await run(['diff', id, '--name-only'], dir);
    expect(names.stdout).toBe('app.txt\n');
    const patch = await run(['diff', id], dir);
    expect(patch.stdout).toContain('--- a/app.txt\n+++ b/app.txt\n@@ -1 +1,2 @@\n one\n+two\n');
    expect(patch.stdout).not.toContain('\u001b[');
    // Nothing switched.
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    // Without refs/remotes/origin/HEAD, the remote says which branch is its default.
    git(dir, 'remote', 'set-head', 'origin', '--delete');
    expect((await run(['diff', id, '--name-only'], dir)).stdout).toBe('app.txt\n');

    // On the branch checkout made, the session is the branch's; at a terminal git writes (and pages).
    expect((await run(['checkout', id], dir)).code).toBe(0);
    const spawner = new RecordingSpawner();
    const tty = await run(['diff', '--stat'], dir, { spawner, tty: { stdout: true, stderr: true } });
    expect(tty.code, tty.stderr).toBe(0);
    expect(spawner.attachedRuns).toEqual([
      { file: 'git', args: ['diff', '--stat', `refs/remotes/origin/main...${head12}`, '--'], cwd: dir },
    ]);
  });
});

describe('--attempt K of a session group (create --attempts)', () => {
  it('diff and checkout take the group (its id, or last) and the attempt', async () => {
    const made = await runMain(['create', '-a', 'claude', '--attempts', '2', 'make it so'], { env });
    expect(made.code, made.stderr).toBe(0);
    const [first = '', second = ''] = made.stdout.trim().split('\n');
    const group = /session group ([0-9a-f-]{36})/.exec(made.stderr)?.[1] ?? '';
    em.addPullRequest(first, PR12);
    em.addPullRequest(second, PR13);
    const dir = clone();
    expect((await run(['diff', 'last', '--attempt', '2', '--name-only'], dir)).stdout).toBe('other.txt\n');
    expect((await run(['diff', group, '--attempt', '1', '--name-only'], dir)).stdout).toBe('app.txt\n');
    const out = await run(['checkout', '--attempt', '2', '--json'], dir);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ session_id: second });
    const none = await run(['diff', group, '--attempt', '3'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`group ${group} has no attempt 3`);
    const notGroup = await run(['diff', first, '--attempt', '1'], dir);
    expect(notGroup.code).toBe(2);
  });
});
