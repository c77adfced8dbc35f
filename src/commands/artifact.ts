// agents artifact <session> <artifact-id> [-o FILE]: one artifact of a session (a plan iteration or a
// file), downloaded from its presigned link. Also the download step of `agents plan`.
import { writeFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import type { Artifact } from '../api/types.js';
import { ApiError } from '../api/errors.js';
import { CliError, ExitCode } from '../errors.js';
import type { SessionRef } from '../input/session-ref.js';
import { resolveSession } from '../input/resolve-session.js';
import type { Item } from '../output/items.js';
import { fileError } from '../util/fs-errors.js';

export interface ArtifactFlags {
  output?: string;
}

/** Bytes that would garble a terminal: not UTF-8 text, or holding NUL. */
export function isBinary(bytes: Buffer): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** Downloads `artifact` and returns the item to print (or writes it to `output`). */
export async function fetchArtifact(
  ctx: Context,
  artifact: Artifact,
  flags: ArtifactFlags,
  what: 'plan' | 'artifact',
): Promise<Item> {
  const client = await ctx.client();
  const { bytes, contentType } = await client.download(artifact.url, { signal: ctx.signal });
  if (flags.output !== undefined) {
    try {
      await writeFile(flags.output, bytes);
    } catch (err) {
      throw fileError('-o', flags.output, 'write', err);
    }
    return { kind: 'artifact', what, artifact, bytes, contentType, written: flags.output };
  }
  // Raw bytes on a terminal could drive it; a script's pipe gets them as they are.
  if (ctx.caps.stdoutIsTTY && !ctx.globals.json && isBinary(bytes)) {
    throw new CliError(`${artifact.file_name ?? 'the artifact'} is not text; it was not printed`, {
      exitCode: ExitCode.USAGE,
      hint: `write it to a file: agents artifact … -o ${artifact.file_name ?? 'FILE'}`,
    });
  }
  return { kind: 'artifact', what, artifact, bytes, contentType };
}

/** The artifact's record, with a clear line for one the session does not have. */
export async function artifactRecord(ctx: Context, sessionId: string, artifactId: string): Promise<Artifact> {
  const client = await ctx.client();
  try {
    return await client.getArtifact(sessionId, artifactId, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') {
      throw new CliError(
        `session ${sessionId} has no artifact ${artifactId} (or the session does not exist)`,
        {
          exitCode: ExitCode.NOT_FOUND,
          hint: `its plans are listed by: agents show ${sessionId}`,
          cause: err,
        },
      );
    }
    throw err;
  }
}

export async function artifact(
  ctx: Context,
  ref: SessionRef,
  artifactId: string,
  flags: ArtifactFlags,
): Promise<Item> {
  const { profile } = await ctx.settings([]);
  const { id } = await resolveSession(ref, ctx.state, profile);
  const record = await artifactRecord(ctx, id, artifactId);
  return fetchArtifact(ctx, record, flags, 'artifact');
}
