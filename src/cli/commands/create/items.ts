import type { Session } from '../../../core/index.js';
import { jsonLine, type Handlers } from '../../output/printer.js';
import { renderCreated } from '../../output/render.js';
import { jsonText, neutralize } from '../../../util/text.js';

export type CreateItem =
  | { kind: 'session-created'; session: Session; waiting: boolean }
  /** create --attempts: the attempts the service took, of `of` asked for. */
  | {
      kind: 'attempts-created';
      group: string;
      attempts: { attempt: number; session: Session }[];
      of: number;
      waiting: boolean;
    };

export const print: Handlers<CreateItem> = {
  'session-created'(p, { session, waiting }) {
    if (p.ctx.caps.stderrIsTTY) p.ctx.log.info(renderCreated(session, p.ctx.styleErr));
    if (!waiting) p.out(p.json ? jsonLine(session) : `${session.id}\n`);
  },
  'attempts-created'(p, { group, attempts, of, waiting }) {
    if (p.json) {
      if (!waiting) p.out(`${jsonText(attempts.map((a) => a.session))}\n`);
    } else if (p.text.tty && !waiting) {
      const { style } = p.text;
      const rows = attempts.map(
        ({ attempt, session }) =>
          `  ${style.bold(`attempt ${attempt}`)}  ${session.id}  ${neutralize(session.session_html_url ?? '')}`,
      );
      p.out(`${[`${style.green('✓')} Session group ${group}`, ...rows].join('\n')}\n`);
    } else if (!waiting) {
      // Each id on a line of its own: what `agents wait` reads; the group on stderr.
      p.out(attempts.map((a) => `${a.session.id}\n`).join(''));
    }
    p.ctx.log.info(`session group ${group}: ${attempts.length} of ${of} attempts created`);
    if (p.ctx.caps.stderrIsTTY && !waiting && attempts.length > 0)
      p.ctx.log.hint(`Wait for them with: agents wait ${group}\nCompare: agents diff ${group} --attempt K`);
  },
};
