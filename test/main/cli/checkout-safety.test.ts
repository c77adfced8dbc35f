// What agents checkout must never do to a clone: drop a commit made on its branch (it moves the branch only
// by fast-forward), move a branch git reads `--branch` as (`@{-1}`, `@`), overwrite an ignored or untracked
// file the pull request tracks; and what a hostile pull request address may not do to its errors and its
// stderr. Real git against a repository of the test's own (test/support/git-fixture.ts).
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { ownEmulator } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { cliEnv } from '../../support/run-cli.js';
import { runMain, type MainOptions } from '../../support/main.js';
import { until } from '../../support/until.js';
import {
  GIT_ENV,
  git,
  gitFixture,
  snapshot,
  type GitFixture,
  sessionWith as sessionWithPullRequests,
} from '../../support/git-fixture.js';

const PR = (n: number) => `https://github.com/acme/app/pull/${n}`;

let em: RunningEmulator;
let env: NodeJS.ProcessEnv;
let repo: GitFixture;

const run = (args: string[], cwd: string, o: MainOptions = {}) => runMain(args, { env, cwd, ...o });

/** A session of the emulator with these pull requests. */
const sessionWith = (...prs: string[]) => sessionWithPullRequests(em, env, ...prs);

beforeAll(async () => {
  em = await ownEmulator({ dialect: 'live' });
  env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...GIT_ENV });
  repo = gitFixture();
});

afterAll(async () => {
  await em.close();
});

describe('agents checkout keeps local work', () => {
  it('run again, moves its branch only by fast-forward: a commit made on it is never dropped', async () => {
    const head = repo.pushCommit(repo.main0, { 'app.txt': 'one\ntwo\n' }, 'refs/pull/20/head');
    const id = await sessionWith(PR(20));
    const dir = repo.clone();
    const branch = `agents/${id.slice(0, 8)}-pr20`;
    expect((await run(['checkout', id], dir)).code).toBe(0);

    // A commit of the user's on the branch; the pull request has not moved: the branch is left where it is.
    writeFileSync(join(dir, 'mine.txt'), 'mine\n');
    git(dir, 'add', 'mine.txt');
    git(dir, 'commit', '-q', '-m', 'mine');
    const mine = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'switch', '-q', 'main');
    const ahead = await run(['checkout', id], dir);
    expect(ahead.code, ahead.stderr).toBe(0);
    expect(ahead.stdout).toBe(`${branch} ${mine}\n`);
    expect(ahead.stderr).toContain(
      `Switched to ${branch}, left at ${mine.slice(0, 7)}: 1 commit beyond the pull request's head ${head.slice(0, 7)}`,
    );
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe(branch);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(mine);

    // The agent pushes: the branch and the pull request have each a commit the other lacks. Refused.
    const next = repo.pushCommit(head, { 'app.txt': 'one\ntwo\nthree\n' }, 'refs/pull/20/head');
    const before = snapshot(dir);
    const refused = await run(['checkout', id], dir);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toContain(
      `error: the branch ${branch} has 1 commit the pull request's head (${next.slice(0, 7)}) does not; moving it would drop it`,
    );
    expect(refused.stderr).toContain(
      `hint: keep it on another branch (git branch ${branch}-mine ${branch}), then move ${branch} with --force; or merge the head into it yourself (git pull)`,
    );
    expect(snapshot(dir)).toEqual(before);
    expect(git(dir, 'rev-parse', branch)).toBe(mine);

    // Asked for, with the commit kept elsewhere: --force moves it.
    git(dir, 'branch', `${branch}-mine`, branch);
    const forced = await run(['checkout', id, '--force'], dir);
    expect(forced.code, forced.stderr).toBe(0);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(next);
    expect(readFileSync(join(dir, 'app.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('refuses a --branch git reads as another branch (@{-1}, @, @{…}), exit 2, nothing moved', async () => {
    repo.pushCommit(repo.main0, { 'app.txt': 'one\nPR\n' }, 'refs/pull/22/head');
    const id = await sessionWith(PR(22));
    const dir = repo.clone();
    // @{-1} is main for git: the branch checked out before this one.
    git(dir, 'switch', '-q', '-c', 'side');
    const before = snapshot(dir);
    for (const name of ['@{-1}', '@', 'x@{1}', '@{upstream}']) {
      const r = await run(['checkout', id, '--branch', name], dir);
      expect([name, r.code, r.stdout]).toEqual([name, 2, '']);
      expect(r.stderr).toMatch(/^error: --branch ".*" is read by git as (the branch main|another name)/);
      expect(snapshot(dir)).toEqual(before);
    }
    const r = await run(['checkout', id, '--branch', '@{-1}'], dir);
    expect(r.stderr).toContain(
      'error: --branch "@{-1}" is read by git as the branch main; give the new branch\'s own name',
    );
    expect(git(dir, 'rev-parse', 'main')).toBe(repo.main0);
  });

  it('never overwrites an ignored or untracked file the pull request tracks: exit 2 naming them, nothing moved', async () => {
    repo.pushCommit(repo.main0, { '.env': 'ATTACKER=1\n', 'notes.txt': 'theirs\n' }, 'refs/pull/21/head');
    const id = await sessionWith(PR(21));
    const dir = repo.clone();
    appendFileSync(join(dir, '.git', 'info', 'exclude'), '.env\n');
    writeFileSync(join(dir, '.env'), 'SECRET=mine\n');
    writeFileSync(join(dir, 'notes.txt'), 'my notes\n');
    const before = snapshot(dir);
    const r = await run(['checkout', id], dir);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(
      'error: the pull request would overwrite 2 files of this clone that git does not track: .env, notes.txt',
    );
    expect(r.stderr).toContain('hint: move them away (or commit them), then run it again');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('SECRET=mine\n');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('my notes\n');
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('agents checkout and hostile pull request addresses', () => {
  it('a malformed %-escape is a usage error (exit 2) with a clear line', async () => {
    const dir = repo.clone();
    const before = snapshot(dir);
    const r = await run(['checkout', await sessionWith('https://github.com/%ZZ/app/pull/1')], dir);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(
      'error: the pull request "https://github.com/%ZZ/app/pull/1" is not a valid address: "%ZZ" is not a %-escape',
    );
    expect(r.stderr).not.toContain('URI malformed');
    expect(snapshot(dir)).toEqual(before);
  });

  it('control characters in an address are shown escaped on stderr, never raw, in the summary and the list', async () => {
    const head = repo.pushCommit(repo.main0, { 'app.txt': 'one\n23\n' }, 'refs/pull/23/head');
    const forged = `${PR(23)}#x\nerror: forged\u001b[2J`;
    const id = await sessionWith(forged);
    const dir = repo.clone();
    const r = await run(['checkout', id], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`agents/${id.slice(0, 8)}-pr23 ${head}\n`);
    expect(r.stderr).toContain(`(${PR(23)}#x\\nerror: forged\\u001b[2J, from origin)`);
    expect(r.stderr).not.toMatch(/\nerror: forged/);

    // At a terminal, with two to choose from: each on one line of the list.
    const two = await sessionWith(PR(12), forged);
    const chosen = await run(['checkout', two], dir, {
      tty: { stdin: true, stdout: true, stderr: true },
      idleStdin: true,
      onStart: (p) => void until(() => p.stderr.includes(PR(12))).then(() => p.stdin.write('\r')),
    });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stderr).toContain(`${PR(23)}#x\\nerror: forged\\u001b[2J`);
    expect(chosen.stderr).not.toMatch(/\nerror: forged/);
  });
});
