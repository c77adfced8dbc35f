import type { SessionWork } from './session-work.js';
import { noteSessionFacts, readKnownSessions } from '../state/known-sessions.js';

/** The dashboard address of a session: recorded, or asked of the service (and then recorded). */
export async function webAddress(
  ctx: Pick<SessionWork, 'history' | 'client' | 'signal'>,
  id: string,
): Promise<string> {
  const history = await ctx.history();
  const known = (await readKnownSessions(history)).find((s) => s.id === id);
  if (known?.web) return known.web;
  const client = await ctx.client();
  const session = await client.getSession(id, { signal: ctx.signal });
  if (known) await noteSessionFacts(history, [{ id, web: session.session_html_url }]);
  return session.session_html_url;
}
