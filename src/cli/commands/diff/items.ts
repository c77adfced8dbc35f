import { jsonLine, type Handlers } from '../../output/printer.js';

/** A pull request's change, as git wrote it, against the remote's default branch `base`. */
export type DiffItem = {
  kind: 'diff';
  sessionId: string;
  pullRequest: string;
  remote: string;
  base: string;
  head: string;
  bytes: Buffer;
};

export const print: Handlers<DiffItem> = {
  diff(p, item) {
    if (p.json) {
      const ids = { session_id: item.sessionId, pull_request: item.pullRequest, remote: item.remote };
      p.out(jsonLine({ ...ids, base: item.base, head: item.head, diff: item.bytes.toString('utf8') }));
    } else p.ctx.stderr.around(() => p.ctx.io.stdout.write(item.bytes));
  },
};
