// agents diff: at a terminal git itself writes it (its pager, its colours); otherwise its output is data.
import type { Context } from '../../run/context.js';
import { CliError, type SessionRef, withAttempt } from '../../../core/index.js';
import type { PullRequestPick } from '../../input/pull-request-choice.js';
import { locatePull } from '../options/session-pull.js';
import { currentBranchSession, defaultBranch, fetchPull } from '../../git/clone.js';
import { git, gitSays } from '../../git/git.js';
import type { Item } from '../../output/items.js';
import type { DiffItem } from './items.js';

export { print } from './items.js';

export type DiffFlags = { pr?: PullRequestPick; attempt?: number; stat?: boolean; nameOnly?: boolean };

export async function diff(
  ctx: Context,
  given: SessionRef | undefined,
  flags: DiffFlags,
): Promise<Item | DiffItem | void> {
  // Left out: the session of the branch agents checkout made, when on one (as gh pr diff takes the branch's).
  const { sessionId, pr, remote, place } = await locatePull(
    ctx,
    await withAttempt(given, flags.attempt, () => ctx.history()),
    { pick: flags.pr, clean: false, fallback: currentBranchSession },
  );
  const base = await defaultBranch(place, remote.name);
  const tracking = `refs/remotes/${remote.name}/${base}`;
  // The base is brought up to date with the head, in the one fetch, as `git fetch <remote>` would.
  const head = await fetchPull(place, remote.name, pr, [`+refs/heads/${base}:${tracking}`]);
  const shape = flags.stat ? ['--stat'] : flags.nameOnly ? ['--name-only'] : [];
  const range = [...shape, `${tracking}...${head}`, '--'];
  const spawner = ctx.io.spawner;
  if (ctx.caps.stdoutIsTTY && !ctx.globals.json && spawner !== undefined) {
    const colour = ctx.caps.colorOut ? [] : ['--no-color'];
    const code = await spawner.attached('git', ['diff', ...colour, ...range], {
      cwd: place.cwd,
      env: ctx.io.env,
    });
    if (code !== 0) throw new CliError(`git diff failed (exit code ${code ?? 'none'})`);
    return;
  }
  const r = await git(place, ['diff', '--no-color', ...range]);
  if (r.code !== 0) throw new CliError(`git diff failed: ${gitSays(r)}`);
  return { kind: 'diff', sessionId, pullRequest: pr.url, remote: remote.name, base, head, bytes: r.stdout };
}
