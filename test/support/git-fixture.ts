// A repository of the test's own for checkout and diff: a bare repository stands for GitHub
// (refs/pull/<n>/head as GitHub keeps them), and each clone's origin is https://github.com/acme/app.git,
// redirected to it by git's url.<base>.insteadOf, so nothing leaves the machine. Real git throughout.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { runMain } from './main.js';

export const ORIGIN = 'https://github.com/acme/app.git';

/** Git as the tests run it: no user or system config of this machine, a fixed author. */
export const GIT_ENV = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Runs git in `cwd` as the tests do; its stdout, trimmed. Throws when git fails. */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' }).trim();

export interface GitFixture {
  root: string;
  bare: string;
  /** The commit `main` starts at: app.txt = "one\n". */
  main0: string;
  /** A commit writing `files` pushed to the bare repository as `ref`, on top of `from`. */
  pushCommit(from: string, files: Record<string, string>, ref: string): string;
  /** A fresh clone whose origin reads as `origin` (GitHub's address by default). */
  clone(origin?: string): string;
}

/** A bare repository with `main` (one commit) and a scratch clone to make commits with. */
export function gitFixture(): GitFixture {
  const root = mkdtempSync(join(tmpdir(), 'agents-checkout-'));
  const bare = join(root, 'github.git');
  const work = join(root, 'work');
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  git(root, 'init', '-q', '-b', 'main', work);
  writeFileSync(join(work, 'app.txt'), 'one\n');
  git(work, 'add', 'app.txt');
  git(work, 'commit', '-q', '-m', 'one');
  git(work, 'push', '-q', bare, 'main');
  let counter = 0;
  return {
    root,
    bare,
    main0: git(work, 'rev-parse', 'HEAD'),
    pushCommit(from, files, ref) {
      git(work, 'checkout', '-q', '--detach', from);
      for (const [file, text] of Object.entries(files)) {
        writeFileSync(join(work, file), text);
        git(work, 'add', '--force', file);
      }
      git(work, 'commit', '-q', '-m', Object.keys(files).join(', '));
      git(work, 'push', '-q', '--force', bare, `HEAD:${ref}`);
      return git(work, 'rev-parse', 'HEAD');
    },
    clone(origin = ORIGIN) {
      const dir = join(root, `clone-${(counter += 1)}`);
      git(root, 'clone', '-q', '-c', `url.${bare}.insteadOf=${origin}`, origin, dir);
      return dir;
    },
  };
}

/** Everything a refusal must leave as it was: the branches and their commits, HEAD, the files' changes. */
export const snapshot = (dir: string): string[] => [
  git(dir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'),
  git(dir, 'symbolic-ref', 'HEAD'),
  git(dir, 'status', '--porcelain', '--ignored'),
  git(dir, 'config', '--list', '--local'),
];

/** A session created on `em` (through main, with `env`) that lists these pull requests. */
export async function sessionWith(
  em: RunningEmulator,
  env: NodeJS.ProcessEnv,
  ...prs: string[]
): Promise<string> {
  const r = await runMain(['create', '-a', 'claude', 'make it so'], { env });
  expect(r.code, r.stderr).toBe(0);
  const id = r.stdout.trim();
  for (const pr of prs) em.addPullRequest(id, pr);
  return id;
}
