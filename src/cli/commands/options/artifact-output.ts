// plan and artifact: the record found and its bytes fetched within --timeout, written to -o or printed.
import { isUtf8 } from 'node:buffer';
import { writeFile } from 'node:fs/promises';
import type { Context } from '../../run/context.js';
import {
  type ApiClient,
  type Artifact,
  CliError,
  downloadArtifact,
  ExitCode,
  fileError,
  withDeadline,
} from '../../../core/index.js';
import type { Item } from '../../output/items.js';

export type DownloadFlags = { output?: string; timeout?: number };

/** Writes -o/--output's file; a failure names the option and the file. */
export async function writeOutput(option: string, path: string, data: string | Buffer): Promise<void> {
  try {
    await writeFile(path, data);
  } catch (err) {
    throw fileError(option, path, 'write', err);
  }
}

/** The artifact `record` finds, downloaded (`doing`: what a time-out says was under way). */
export async function artifactItem(
  ctx: Context,
  flags: DownloadFlags,
  what: 'plan' | 'artifact',
  doing: string,
  record: (client: ApiClient, signal: AbortSignal) => Promise<Artifact>,
): Promise<Item> {
  const client = await ctx.client();
  const { artifact, download } = await withDeadline(ctx.signal, flags.timeout, doing, async (signal) =>
    downloadArtifact(client, await record(client, signal), { signal }),
  );
  const { bytes, contentType } = download;
  if (flags.output !== undefined) {
    await writeOutput('-o', flags.output, bytes);
    return { kind: 'artifact', what, artifact, bytes, contentType, written: flags.output };
  }
  // Raw bytes on a terminal could drive it (not UTF-8, or holding NUL); a script's pipe gets them as they are.
  if (ctx.caps.stdoutIsTTY && !ctx.globals.json && (bytes.includes(0) || !isUtf8(bytes))) {
    throw new CliError(`${artifact.file_name ?? 'the artifact'} is not text; it was not printed`, {
      exitCode: ExitCode.USAGE,
      hint: `write it to a file: agents artifact … -o ${artifact.file_name ?? 'FILE'}`,
    });
  }
  return { kind: 'artifact', what, artifact, bytes, contentType };
}
