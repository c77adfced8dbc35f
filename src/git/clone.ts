// The local clone as checkout and diff need it: that there is one with nothing uncommitted, its remotes,
// a pull request's head fetched from one, the remote's default branch, and the branches this tool made
// (recorded in git's own config as `branch.<name>.agents-session`, which `git branch -D` removes with it).
import { CliError, UsageError } from '../errors/cli-error.js';
import { git, gitSays, gitText, type GitPlace } from './git.js';
import { remoteNames, type PullRequestAddress } from './forge-urls.js';
import { isUuid } from '../util/uuid.js';

/** The config key, under `branch.<name>.`, that marks a branch as made by `agents checkout`: the session id. */
export const MADE_BY_KEY = 'agents-session';

/** One remote of the clone: its name and its URL as configured (before any `url.<base>.insteadOf`). */
export interface Remote {
  name: string;
  url: string;
}

/**
 * Refuses, with what to do, unless the directory is in a git work tree; with `clean`, also unless no
 * tracked file has changes (staged or not). Untracked files are left alone, as `git switch` does.
 */
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

/** The clone's remotes, with their URLs as written in its config. */
export async function remotes(place: GitPlace): Promise<Remote[]> {
  const r = await git(place, ['config', '--get-regexp', '^remote\\..*\\.url$']);
  // 1: no remote at all.
  if (r.code === 1) return [];
  if (r.code !== 0) throw new UsageError(`could not read the clone's remotes: ${gitSays(r)}`);
  return r.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      const m = /^remote\.(.+)\.url (.*)$/.exec(line);
      return m ? [{ name: m[1] ?? '', url: m[2] ?? '' }] : [];
    });
}

/**
 * The remote whose URL names the pull request's repository (`origin` first where several do); a usage
 * error with the `git remote add` line when none does.
 */
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
 * Fetches the pull request's head (`refs/pull/<n>/head`, which GitHub keeps for every pull request) and
 * the `extra` refspecs in one fetch; resolves to the head's commit. Nothing but FETCH_HEAD and the extra
 * refspecs' destinations changes.
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

/**
 * The remote's default branch, as `refs/remotes/<remote>/HEAD` names it (git clone sets it), else as the
 * remote says (`git ls-remote --symref`, one more round trip): its name, e.g. `main`.
 */
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

/** A local branch: whether it exists, and the session that made it when `agents checkout` did. */
export interface BranchState {
  exists: boolean;
  madeFor?: string;
}

export async function branchState(place: GitPlace, branch: string): Promise<BranchState> {
  const [ref, made] = await Promise.all([
    git(place, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]),
    git(place, ['config', '--get', `branch.${branch}.${MADE_BY_KEY}`]),
  ]);
  const madeFor = made.code === 0 ? made.stdout.toString('utf8').trim() : undefined;
  return { exists: ref.code === 0, ...(madeFor ? { madeFor } : {}) };
}

/** Refuses a branch name git would refuse, before anything is fetched. */
export async function requireBranchName(place: GitPlace, branch: string): Promise<void> {
  const r = await git(place, ['check-ref-format', '--branch', branch]);
  if (r.code !== 0) throw new UsageError(`not a valid branch name: ${JSON.stringify(branch)}`);
}

/**
 * Makes or moves `branch` to `commit`, switches to it, and records it as made for `sessionId`, with the
 * pull request as its upstream (`git pull` then brings the agent's next push, as after `gh pr checkout`).
 */
export async function switchTo(
  place: GitPlace,
  o: { branch: string; commit: string; remote: string; pr: PullRequestAddress; sessionId: string },
): Promise<void> {
  await gitText(place, ['checkout', '--quiet', '-B', o.branch, o.commit]);
  const key = (k: string) => `branch.${o.branch}.${k}`;
  await gitText(place, ['config', key(MADE_BY_KEY), o.sessionId]);
  await gitText(place, ['config', key('remote'), o.remote]);
  await gitText(place, ['config', key('merge'), `refs/pull/${o.pr.number}/head`]);
}

/**
 * The session that made the branch checked out now, if `agents checkout` made it (a session id: what the
 * config holds is believed only when it is a UUID, as it goes into a request's URL).
 */
export async function currentBranchSession(place: GitPlace): Promise<string | undefined> {
  const head = await git(place, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (head.code !== 0) return undefined;
  const branch = head.stdout.toString('utf8').trim();
  const { madeFor } = await branchState(place, branch);
  return madeFor !== undefined && isUuid(madeFor) ? madeFor.toLowerCase() : undefined;
}
