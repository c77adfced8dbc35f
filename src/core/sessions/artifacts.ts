// A session's artifacts as plan, artifact and the chat's /plan read them: an artifact's record (with a clear
// line for one the session does not have), the session's latest plan, and the bytes behind a record's
// presigned link.
import type { ApiClient, CallOptions } from '../api/client.js';
import { isHttpError } from '../api/errors.js';
import type { Artifact } from '../api/types.js';
import type { Download } from '../api/transport.js';
import { NotFoundError } from '../errors/agents-error.js';

/** The artifact's record (its id checked to be the one asked for, by the client). */
export async function artifactRecord(
  client: ApiClient,
  sessionId: string,
  artifactId: string,
  o: CallOptions,
): Promise<Artifact> {
  try {
    return await client.getArtifact(sessionId, artifactId, o);
  } catch (err) {
    if (isHttpError(err) && err.kind === 'not_found') {
      throw new NotFoundError(
        `session ${sessionId} has no artifact ${artifactId} (or the session does not exist)`,
        {
          status: err.status,
          hint: `its plans are listed by: agents show ${sessionId}`,
          cause: err,
        },
      );
    }
    throw err;
  }
}

/**
 * The record of the session's latest plan: the session lists the latest artifact of each plan, oldest plan
 * first (`plan_artifact_ids`, the live service's field). Exit 4 when it has none.
 */
export async function latestPlanRecord(
  client: ApiClient,
  sessionId: string,
  o: CallOptions,
): Promise<Artifact> {
  const session = await client.getSession(sessionId, o);
  const latest = (session.plan_artifact_ids ?? []).at(-1);
  if (latest === undefined) {
    throw new NotFoundError(`session ${session.id} has no plan`, {
      hint: `agents show ${session.id} shows what the agent did`,
    });
  }
  return artifactRecord(client, session.id, latest, o);
}

/** An artifact's record and its bytes. */
export interface FetchedArtifact {
  artifact: Artifact;
  download: Download;
}

/** The bytes behind the record's presigned link (fetched without the key). */
export async function downloadArtifact(
  client: ApiClient,
  artifact: Artifact,
  o: CallOptions,
): Promise<FetchedArtifact> {
  return { artifact, download: await client.download(artifact.url, o) };
}
