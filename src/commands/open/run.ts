// agents open (and show --web): the session's dashboard address, for the browser. The address is the one
// recorded when this machine created the session, else the service's (one GET).
import type { Context } from '../../context.js';
import type { SessionRef } from '../../input/session-ref.js';
import { resolveSession } from '../../sessions/resolve.js';
import { sessionOrPick } from '../../input/pick-session.js';
import { noteSessionFacts, readKnownSessions } from '../../state/sessions.js';
import type { Item } from '../../output/items.js';

/** The dashboard address of a session: recorded, or asked of the service (and then recorded). */
export async function webAddress(ctx: Context, id: string, profile: string): Promise<string> {
  const known = (await readKnownSessions(ctx.state, profile)).find((s) => s.id === id);
  if (known?.web) return known.web;
  const client = await ctx.client();
  const session = await client.getSession(id, { signal: ctx.signal });
  if (known) await noteSessionFacts(ctx.state, profile, [{ id, web: session.session_html_url }]);
  return session.session_html_url;
}

export async function open(ctx: Context, given: SessionRef | undefined): Promise<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { profile } = await ctx.settings([]);
  const { id } = await resolveSession(ref, ctx.state, profile);
  return { kind: 'browse', url: await webAddress(ctx, id, profile) };
}
