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
