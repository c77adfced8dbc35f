// agents checkout: local commits and files git does not track are never lost (src/cli/git/clone.ts).
import type { Context } from '../../run/context.js';
import { type SessionRef, UsageError, withAttempt } from '../../../core/index.js';
import type { PullRequestPick } from '../../input/pull-request-choice.js';
import { locatePull } from '../options/session-pull.js';
import { branchState, fetchPull, requireBranchName, switchTo } from '../../git/clone.js';
import type { Item } from '../../output/items.js';
import type { CheckoutItem } from './items.js';

export { print } from './items.js';

export type CheckoutFlags = { pr?: PullRequestPick; attempt?: number; branch?: string; force?: boolean };

export async function checkout(
  ctx: Context,
  given: SessionRef | undefined,
  flags: CheckoutFlags,
): Promise<Item | CheckoutItem> {
  const ref = await withAttempt(given, flags.attempt, () => ctx.history());
  const { sessionId, pr, remote, place } = await locatePull(ctx, ref, {
    pick: flags.pr,
    clean: true,
    before: flags.branch === undefined ? undefined : (place) => requireBranchName(place, flags.branch ?? ''),
  });
  const branch = flags.branch ?? `agents/${sessionId.slice(0, 8)}-pr${pr.number}`;
  const { tip, madeFor } = await branchState(place, branch);
  const force = flags.force === true;
  if (tip !== undefined && madeFor === undefined && !force) {
    throw new UsageError(
      `the branch ${branch} exists and agents checkout did not make it`,
      'give another with --branch NAME, or move it anyway with --force',
    );
  }
  const commit = await fetchPull(place, remote.name, pr);
  const move = await switchTo(place, { branch, tip, commit, force, remote: remote.name, pr, sessionId });
  const where = { sessionId, pullRequest: pr.url, remote: remote.name, branch };
  return { kind: 'checkout', ...where, commit: move.at, head: commit, before: tip, ahead: move.ahead };
}
