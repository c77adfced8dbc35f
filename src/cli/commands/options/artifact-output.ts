// A downloaded artifact as plan and artifact hand it over (shared by the two): written to -o, or an item
// to print, unless it is binary and stdout is a terminal (raw bytes could drive it).
import { writeFile } from 'node:fs/promises';
import type { Context } from '../../run/context.js';
import { CliError, ExitCode } from '../../../core/errors/cli-error.js';
import type { FetchedArtifact } from '../../../core/sessions/artifacts.js';
import type { Item } from '../../output/items.js';
import { fileError } from '../../../core/errors/file-errors.js';

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
  flags: { output?: string },
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
