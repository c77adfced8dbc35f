import type { Context } from '../../run/context.js';
import { resolveSession, type SessionRef, webAddress } from '../../../core/index.js';
import { sessionOrPick } from '../../input/pick-session.js';
import type { Item } from '../../output/items.js';

export async function open(ctx: Context, given: SessionRef | undefined): Promise<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { id } = await resolveSession(ref, await ctx.history());
  return { kind: 'browse', url: await webAddress(ctx, id) };
}
