// agents plan <session> [-o FILE]: the latest plan the agent wrote (markdown).
import type { Context } from '../../run/context.js';
import type { SessionRef } from '../../input/session-ref.js';
import { resolveSession } from '../../../core/sessions/resolve.js';
import { sessionOrPick } from '../../input/pick-session.js';
import { downloadArtifact, latestPlanRecord } from '../../../core/sessions/artifacts.js';
import { withDeadline } from '../../../core/sessions/deadline.js';
import type { Item } from '../../output/items.js';
import { artifactItem } from '../options/artifact-output.js';

/** plan's options as its spec checked them. */
export interface PlanFlags {
  /** -o: write the plan to this file instead of stdout. */
  output?: string;
  /** --timeout: the record and the download, retries included (exit 124). */
  timeout?: number;
}

export async function plan(ctx: Context, given: SessionRef | undefined, flags: PlanFlags): Promise<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { id } = await resolveSession(ref, await ctx.history());
  const client = await ctx.client();
  const fetched = await withDeadline(
    ctx.signal,
    flags.timeout,
    `fetching the plan of session ${id}`,
    async (signal) => downloadArtifact(client, await latestPlanRecord(client, id, { signal }), { signal }),
  );
  return artifactItem(ctx, fetched, flags, 'plan');
}
