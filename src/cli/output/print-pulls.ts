// The presenter's handlers for a session's pull request brought into the clone: checkout and diff.
import { jsonLine, type Handlers } from './printer.js';
import { escapeForLine } from '../../util/text.js';

const short = (commit: string) => commit.slice(0, 7);

export const PULL_HANDLERS: Handlers<'checkout' | 'diff'> = {
  checkout(p, item) {
    const { sessionId, pullRequest, remote, branch, commit, head, before, ahead } = item;
    if (p.json) {
      p.out(jsonLine({ session_id: sessionId, pull_request: pullRequest, remote, branch, commit }));
    } else {
      p.out(`${branch} ${commit}\n`);
    }
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
  diff(p, item) {
    if (p.json) {
      const { sessionId, pullRequest, remote, base, head, bytes } = item;
      p.out(
        jsonLine({
          session_id: sessionId,
          pull_request: pullRequest,
          remote,
          base,
          head,
          diff: bytes.toString('utf8'),
        }),
      );
    } else p.ctx.stderr.around(() => p.ctx.io.stdout.write(item.bytes));
  },
};
