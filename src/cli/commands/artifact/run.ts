import type { Context } from '../../run/context.js';
import type { SessionRef } from '../../../core/sessions/refs.js';
import { resolveSession } from '../../../core/sessions/resolve.js';
import { artifactRecord } from '../../../core/sessions/artifacts.js';
import type { Item } from '../../output/items.js';
import { artifactItem, type DownloadFlags } from '../options/artifact-output.js';

export async function artifact(
  ctx: Context,
  ref: SessionRef,
  artifactId: string,
  flags: DownloadFlags,
): Promise<Item> {
  const { id } = await resolveSession(ref, await ctx.history());
  return artifactItem(ctx, flags, 'artifact', `fetching artifact ${artifactId}`, (client, signal) =>
    artifactRecord(client, id, artifactId, { signal }),
  );
}
