// agents artifact <session> <artifact-id> [-o FILE]: one artifact of a session (a plan iteration or a
// file), downloaded from its presigned link.
import type { Context } from '../../run/context.js';
import type { SessionRef } from '../../input/session-ref.js';
import { resolveSession } from '../../../core/sessions/resolve.js';
import { artifactRecord, downloadArtifact } from '../../../core/sessions/artifacts.js';
import { withDeadline } from '../../../core/sessions/deadline.js';
import type { Item } from '../../output/items.js';
import { artifactItem } from '../options/artifact-output.js';

export interface ArtifactFlags {
  output?: string;
  /** --timeout: the record and the download, retries included (exit 124). */
  timeout?: number;
}

export async function artifact(
  ctx: Context,
  ref: SessionRef,
  artifactId: string,
  flags: ArtifactFlags,
): Promise<Item> {
  const { id } = await resolveSession(ref, await ctx.history());
  const client = await ctx.client();
  const fetched = await withDeadline(
    ctx.signal,
    flags.timeout,
    `fetching artifact ${artifactId}`,
    async (signal) =>
      downloadArtifact(client, await artifactRecord(client, id, artifactId, { signal }), { signal }),
  );
  return artifactItem(ctx, fetched, flags, 'artifact');
}
