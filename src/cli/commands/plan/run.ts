import type { Context } from '../../run/context.js';
import type { SessionRef } from '../../../core/sessions/refs.js';
import { resolveSession } from '../../../core/sessions/resolve.js';
import { sessionOrPick } from '../../input/pick-session.js';
import { latestPlanRecord } from '../../../core/sessions/artifacts.js';
import type { Item } from '../../output/items.js';
import { artifactItem, type DownloadFlags } from '../options/artifact-output.js';

export async function plan(ctx: Context, given: SessionRef | undefined, flags: DownloadFlags): Promise<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { id } = await resolveSession(ref, await ctx.history());
  return artifactItem(ctx, flags, 'plan', `fetching the plan of session ${id}`, (client, signal) =>
    latestPlanRecord(client, id, { signal }),
  );
}
