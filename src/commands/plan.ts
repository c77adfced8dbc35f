// agents plan <session> [-o FILE]: the latest plan the agent wrote (markdown). The session lists the
// latest artifact of each plan, oldest plan first (`plan_artifact_ids`, the live service's field).
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import type { SessionRef } from '../input/session-ref.js';
import { resolveSession } from '../input/resolve-session.js';
import { sessionOrPick } from '../input/pick-session.js';
import type { Item } from '../output/items.js';
import { artifactRecord, fetchArtifact, type ArtifactFlags } from './artifact.js';

export async function plan(ctx: Context, given: SessionRef | undefined, flags: ArtifactFlags): Promise<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { profile } = await ctx.settings([]);
  const { id } = await resolveSession(ref, ctx.state, profile);
  const client = await ctx.client();
  const session = await client.getSession(id, { signal: ctx.signal });
  const ids = Array.isArray(session.plan_artifact_ids)
    ? session.plan_artifact_ids.filter((x): x is string => typeof x === 'string')
    : [];
  const latest = ids.at(-1);
  if (latest === undefined) {
    throw new CliError(`session ${session.id} has no plan`, {
      exitCode: ExitCode.NOT_FOUND,
      hint: `agents show ${session.id} shows what the agent did`,
    });
  }
  return fetchArtifact(ctx, await artifactRecord(ctx, session.id, latest), flags, 'plan');
}
