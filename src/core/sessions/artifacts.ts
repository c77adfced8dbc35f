// A session's artifacts as plan, artifact and the chat's /plan read them.
import type { ApiClient, CallOptions } from '../api/client.js';
import { isHttpError } from '../api/errors.js';
import type { Artifact } from '../api/types.js';
import type { Download } from '../api/transport.js';
import { NotFoundError } from '../errors/agents-error.js';

/** The artifact's record; a 404 says which session and artifact, and where its plans are listed. */
export async function artifactRecord(
  client: ApiClient,
  sessionId: string,
  artifactId: string,
  o: CallOptions,
): Promise<Artifact> {
  return client.getArtifact(sessionId, artifactId, o).catch((err: unknown) => {
    if (!(isHttpError(err) && err.kind === 'not_found')) throw err;
    throw new NotFoundError(
      `session ${sessionId} has no artifact ${artifactId} (or the session does not exist)`,
      { status: err.status, hint: `its plans are listed by: agents show ${sessionId}`, cause: err },
    );
  });
}

/** The session's latest plan (`plan_artifact_ids` lists each plan's latest artifact, oldest plan first). */
export async function latestPlanRecord(
  client: ApiClient,
  sessionId: string,
  o: CallOptions,
): Promise<Artifact> {
  const session = await client.getSession(sessionId, o);
  const latest = (session.plan_artifact_ids ?? []).at(-1);
  if (latest !== undefined) return artifactRecord(client, session.id, latest, o);
  const hint = `agents show ${session.id} shows what the agent did`;
  throw new NotFoundError(`session ${session.id} has no plan`, { hint });
}

/** The bytes behind the record's presigned link (fetched without the key). */
export async function downloadArtifact(
  client: ApiClient,
  artifact: Artifact,
  o: CallOptions,
): Promise<{ artifact: Artifact; download: Download }> {
  return { artifact, download: await client.download(artifact.url, o) };
}
