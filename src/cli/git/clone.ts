// The local clone as checkout and diff need it: that there is one with nothing uncommitted, its remotes,
// a pull request's head fetched from one, the remote's default branch, and the branches this tool made
// (recorded in git's own config as `branch.<name>.agents-session`, which `git branch -D` removes with it).
import { CliError, UsageError } from '../../core/errors/cli-error.js';
import { git, gitSays, gitText, type GitPlace, type GitResult } from './git.js';
import { remoteNames, type PullRequestAddress } from './forge-urls.js';
import { isUuid } from '../../util/uuid.js';

/** Under `branch.<name>.`: the session a branch was made for by `agents checkout`. */
const MADE_BY_KEY = 'agents-session';

/** One remote of the clone: its name and its URL as configured (before any `url.<base>.insteadOf`). */
export interface Remote {
  name: string;
  url: string;
}

/** Refuses a directory out of a work tree; with `clean`, tracked changes too (untracked, as `git switch`). */
export async function requireClone(place: GitPlace, clean: boolean): Promise<void> {
  const r = await git(place, ['status', '--porcelain', '--untracked-files=no']);
  if (r.code !== 0) {
    throw new UsageError(
      `not in a git clone: ${gitSays(r)}`,
      'run it in a clone of the repository the pull request is on (git clone <url>)',
    );
  }
  if (clean && r.stdout.length > 0) {
    const files = r.stdout.toString('utf8').split('\n').filter(Boolean).length;
    throw new UsageError(
      `the clone has uncommitted changes (${files === 1 ? '1 file' : `${files} files`})`,
      'commit or stash them first (git stash), then run it again',
    );
  }
}

export async function remotes(place: GitPlace): Promise<Remote[]> {
  const r = await git(place, ['config', '--get-regexp', '^remote\\..*\\.url$']);
  if (r.code === 1) return []; // no remote at all
  if (r.code !== 0) throw new UsageError(`could not read the clone's remotes: ${gitSays(r)}`);
  const lines = r.stdout.toString('utf8').matchAll(/^remote\.(.+)\.url (.*)$/gm);
  return [...lines].map(([, name = '', url = '']) => ({ name, url }));
}

/** The remote whose URL names the pull request's repository (`origin` first where several do). */
export function remoteFor(list: readonly Remote[], pr: PullRequestAddress): Remote {
  const named = list.filter((r) => remoteNames(r.url, pr));
  const found = named.find((r) => r.name === 'origin') ?? named[0];
  if (found !== undefined) return found;
  const taken = new Set(list.map((r) => r.name));
  const name = !taken.has('origin') ? 'origin' : !taken.has(pr.owner) ? pr.owner : 'agents-pr';
  const seen = list.length ? list.map((r) => `${r.name} ${r.url}`).join(', ') : 'none';
  throw new UsageError(
    `no remote of this clone names ${pr.host}/${pr.owner}/${pr.repo} (remotes: ${seen})`,
    `add one: git remote add ${name} https://${pr.host}/${pr.owner}/${pr.repo}.git`,
  );
}

/**
 * Fetches the pull request's head (`refs/pull/<n>/head`, which GitHub keeps for every pull request) and the
 * `extra` refspecs in one fetch; resolves to the head's commit. Nothing else but FETCH_HEAD changes.
 */
export async function fetchPull(
  place: GitPlace,
  remote: string,
  pr: PullRequestAddress,
  extra: readonly string[] = [],
): Promise<string> {
  const head = `refs/pull/${pr.number}/head`;
  // The head first: FETCH_HEAD lists the refs in the order asked for, and rev-parse reads its first line.
  const r = await git(place, ['fetch', '--quiet', '--no-tags', '--', remote, head, ...extra]);
  if (r.code !== 0) {
    throw new CliError(`could not fetch pull request #${pr.number} from ${remote}: ${gitSays(r)}`, {
      hint: `check that ${pr.url} exists and that git can read ${remote} (git fetch ${remote})`,
    });
  }
  return gitText(place, ['rev-parse', '--verify', 'FETCH_HEAD^{commit}']);
}

/** The remote's default branch: from `refs/remotes/<remote>/HEAD` (git clone sets it), else the remote's. */
export async function defaultBranch(place: GitPlace, remote: string): Promise<string> {
  const local = await git(place, ['symbolic-ref', '--quiet', `refs/remotes/${remote}/HEAD`]);
  const prefix = `refs/remotes/${remote}/`;
  const ref = local.stdout.toString('utf8').trim();
  if (local.code === 0 && ref.startsWith(prefix)) return ref.slice(prefix.length);
  const asked = await git(place, ['ls-remote', '--symref', '--', remote, 'HEAD']);
  const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(asked.stdout.toString('utf8'));
  if (asked.code !== 0 || m === null) {
    throw new UsageError(
      `could not tell the default branch of ${remote}: ${asked.code !== 0 ? gitSays(asked) : 'it names none'}`,
      `set it: git remote set-head ${remote} --auto`,
    );
  }
  return m[1] ?? '';
}

/** A local branch: its commit when it exists, and the session that made it when `agents checkout` did. */
export async function branchState(
  place: GitPlace,
  branch: string,
): Promise<{ tip?: string; madeFor?: string }> {
  const [ref, made] = await Promise.all([
    git(place, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]),
    git(place, ['config', '--get', `branch.${branch}.${MADE_BY_KEY}`]),
  ]);
  const text = (r: GitResult) => (r.code === 0 && r.stdout.toString('utf8').trim()) || undefined;
  return { tip: text(ref), madeFor: text(made) };
}

/**
 * Refuses, before anything is fetched, a branch name git would refuse or read as another: `check-ref-format
 * --branch` expands `@{-1}` to the branch checked out before (the checks that follow would look up, and
 * `checkout -B` move, that one), and `@` alone is HEAD to every other git command.
 */
export async function requireBranchName(place: GitPlace, branch: string): Promise<void> {
  const r = await git(place, ['check-ref-format', '--branch', branch]);
  const read = r.stdout.toString('utf8').trim();
  if (r.code === 0 && read === branch && branch !== '@') return;
  const shown = JSON.stringify(branch);
  const hint = "give the new branch's own name";
  if (r.code === 0 && read !== branch) {
    throw new UsageError(`--branch ${shown} is read by git as the branch ${read}; ${hint}`);
  }
  if (branch === '@' || branch.includes('@{')) {
    throw new UsageError(
      `--branch ${shown} is read by git as another name (@ is HEAD, @{…} another branch or commit); ${hint}`,
    );
  }
  throw new UsageError(`--branch ${shown} is not a valid branch name`);
}

/** Whether commit `a` is `b` or one of its ancestors. */
async function isAncestor(place: GitPlace, a: string, b: string): Promise<boolean> {
  return (await git(place, ['merge-base', '--is-ancestor', a, b])).code === 0;
}

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const pronoun = (n: number) => (n === 1 ? 'it' : 'them');

/** A branch to move to `commit`: its name and its tip, when it exists. */
type BranchTarget = { branch: string; tip: string | undefined; commit: string; force: boolean };

/** Where the branch goes: to `commit` (new, fast-forward or `force`), or left at a tip holding `commit`. */
async function target(place: GitPlace, { branch, tip, commit, force }: BranchTarget) {
  if (tip === undefined || tip === commit || force || (await isAncestor(place, tip, commit))) {
    return { at: commit, ahead: 0 };
  }
  const own = Number(await gitText(place, ['rev-list', '--count', `${commit}..${tip}`]));
  if (await isAncestor(place, commit, tip)) return { at: tip, ahead: own };
  // Commits `commit` does not have would be dropped, as `git checkout -B` drops them.
  throw new UsageError(
    `the branch ${branch} has ${counted(own, 'commit')} the pull request's head (${commit.slice(0, 7)}) does not; moving it would drop ${pronoun(own)}`,
    `keep ${pronoun(own)} on another branch (git branch ${branch}-mine ${branch}), then move ${branch} with --force; or merge the head into it yourself (git pull)`,
  );
}

/**
 * Makes `branch` at `commit` or moves it there (see target), switches to it, and records it as made for
 * `sessionId`, with the pull request as its upstream (`git pull` then brings the agent's next push, as after
 * `gh pr checkout`). No file git does not track is overwritten, ignored ones included: git refuses, so do we.
 */
export async function switchTo(
  place: GitPlace,
  o: BranchTarget & { remote: string; pr: PullRequestAddress; sessionId: string },
): Promise<{ at: string; ahead: number }> {
  const move = await target(place, o);
  // --no-overwrite-ignore: git's checkout otherwise replaces an ignored file (a .env) the commit tracks.
  const r = await git(place, ['checkout', '--quiet', '--no-overwrite-ignore', '-B', o.branch, move.at]);
  if (r.code !== 0) throw checkoutRefusal(r);
  const key = (k: string) => `branch.${o.branch}.${k}`;
  await gitText(place, ['config', key(MADE_BY_KEY), o.sessionId]);
  await gitText(place, ['config', key('remote'), o.remote]);
  await gitText(place, ['config', key('merge'), `refs/pull/${o.pr.number}/head`]);
  return move;
}

/** Why git's checkout refused: the files it would overwrite are the lines it indents (in every language). */
function checkoutRefusal(r: GitResult): CliError {
  const files = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('\t'))
    .map((l) => l.slice(1));
  if (files.length === 0) return new CliError(`git checkout failed: ${gitSays(r)}`);
  const shown = files.length > 10 ? [...files.slice(0, 10), `${files.length - 10} more`] : files;
  const them = pronoun(files.length);
  return new UsageError(
    `the pull request would overwrite ${counted(files.length, 'file')} of this clone that git does not track: ${shown.join(', ')}`,
    `move ${them} away (or commit ${them}), then run it again`,
  );
}

/** The session `agents checkout` made the current branch for (only a UUID: it goes into a request's URL). */
export async function currentBranchSession(place: GitPlace): Promise<string | undefined> {
  const head = await git(place, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (head.code !== 0) return undefined;
  const branch = head.stdout.toString('utf8').trim();
  const { madeFor } = await branchState(place, branch);
  return madeFor !== undefined && isUuid(madeFor) ? madeFor.toLowerCase() : undefined;
}
