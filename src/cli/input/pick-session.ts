// A `<session>` argument left out: at a terminal, a searchable choice of the sessions this machine knows; in
// a script, commander's usage error from before the argument became optional (exit 2, nothing sent).
import type { Context } from '../run/context.js';
import { historyName, readKnownSessions, type SessionRef, timeFormat, UsageError } from '../../core/index.js';
import { sessionChoiceLabel } from '../output/render-sessions.js';

/** The usage error of a missing `<session>` (commander's own words, so scripts see what they saw). */
const MISSING_SESSION = "missing required argument 'session'";

/** The reference given, or one the person at the terminal picks; a usage error when neither can be had. */
export async function sessionOrPick(ctx: Context, ref: SessionRef | undefined): Promise<SessionRef> {
  if (ref !== undefined) return ref;
  if (ctx.prompts === undefined) {
    // `last` is what a script most often means.
    const hint = 'give a session id or address, or "last" for the latest session this machine used';
    throw new UsageError(MISSING_SESSION, hint);
  }
  const history = await ctx.history();
  const known = await readKnownSessions(history);
  if (known.length === 0) {
    throw new UsageError(
      MISSING_SESSION,
      `no session recorded on this machine ${historyName(history)} yet: give a session id or "last"`,
    );
  }
  const time = timeFormat(ctx.io.env);
  const choices = known.map((s) => ({ id: s.id, label: sessionChoiceLabel(s, time, ctx.io.stderr.columns) }));
  return { kind: 'id', id: await ctx.prompts.session(choices) };
}
