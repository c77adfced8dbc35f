import type { Context } from '../../run/context.js';
import { latestPlanRecord, resolveSession, type SessionRef } from '../../../core/index.js';
import { sessionOrPick } from '../../input/pick-session.js';
import type { Item } from '../../output/items.js';
import { artifactItem, type DownloadFlags } from '../options/artifact-output.js';

export async function plan(ctx: Context, given: SessionRef | undefined, flags: DownloadFlags): Promise<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { id } = await resolveSession(ref, await ctx.history());
  return artifactItem(ctx, flags, 'plan', `fetching the plan of session ${id}`, (client, signal) =>
    latestPlanRecord(client, id, { signal }),
  );
}
