import type { Context } from '../../run/context.js';
import type { SessionRef } from '../../../core/sessions/refs.js';
import { resolveSession } from '../../../core/sessions/resolve.js';
import { sessionOrPick } from '../../input/pick-session.js';
import { webAddress } from '../../../core/sessions/web-address.js';
import type { Item } from '../../output/items.js';

export async function open(ctx: Context, given: SessionRef | undefined): Promise<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { id } = await resolveSession(ref, await ctx.history());
  return { kind: 'browse', url: await webAddress(ctx, id) };
}
