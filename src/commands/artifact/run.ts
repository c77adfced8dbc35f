// agents artifact <session> <artifact-id> [-o FILE]: one artifact of a session (a plan iteration or a
// file), downloaded from its presigned link. Also the printing step of `agents plan`.
import { writeFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import type { SessionRef } from '../../input/session-ref.js';
import { resolveSession } from '../../sessions/resolve.js';
import { artifactRecord, downloadArtifact, type FetchedArtifact } from '../../sessions/artifacts.js';
import { withDeadline } from '../../sessions/deadline.js';
import type { Item } from '../../output/items.js';
import { fileError } from '../../file-errors.js';

export interface ArtifactFlags {
  output?: string;
  /** --timeout: the record and the download, retries included (exit 124). */
  timeout?: number;
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

/** The item to print for a downloaded artifact (or it is written to `output`). */
export async function artifactItem(
  ctx: Context,
  fetched: FetchedArtifact,
  flags: ArtifactFlags,
  what: 'plan' | 'artifact',
): Promise<Item> {
  const { artifact } = fetched;
  const { bytes, contentType } = fetched.download;
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

export async function artifact(
  ctx: Context,
  ref: SessionRef,
  artifactId: string,
  flags: ArtifactFlags,
): Promise<Item> {
  const { profile } = await ctx.settings([]);
  const { id } = await resolveSession(ref, ctx.state, profile);
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
