import { jsonLine, type Handlers } from '../../output/printer.js';
import { escapeForLine } from '../../../util/text.js';

/** A pull request on a local branch; `ahead`: commits of its own the branch kept beyond the head. */
export type CheckoutItem = {
  kind: 'checkout';
  sessionId: string;
  pullRequest: string;
  remote: string;
  branch: string;
  commit: string;
  head: string;
  before: string | undefined;
  ahead: number;
};

const short = (commit: string) => commit.slice(0, 7);

export const print: Handlers<CheckoutItem> = {
  checkout(p, item) {
    const { sessionId, pullRequest, remote, branch, commit, head, before, ahead } = item;
    const json = { session_id: sessionId, pull_request: pullRequest, remote, branch, commit };
    p.out(p.json ? jsonLine(json) : `${branch} ${commit}\n`);
    const what =
      before === undefined
        ? `Switched to a new branch ${branch} at ${short(commit)}`
        : ahead > 0
          ? `Switched to ${branch}, left at ${short(commit)}: ${ahead === 1 ? '1 commit' : `${ahead} commits`} beyond the pull request's head ${short(head)}`
          : before === commit
            ? `Switched to ${branch}, already at ${short(commit)}`
            : `Switched to ${branch}, moved from ${short(before)} to ${short(commit)}`;
    // The address is the service's: one line, whatever it holds (a line break would forge a second line).
    p.ctx.log.info(`${what} (${escapeForLine(pullRequest)}, from ${remote})`);
  },
};
