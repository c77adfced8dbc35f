// A JSON Schema file for an answer (--output-schema, the Action's output_schema): read whole, bounded, parsed.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors/cli-error.js';

/** A schema file larger than this is not a schema someone wrote for an answer. */
const MAX_SCHEMA_BYTES = 1024 * 1024;

/** The JSON in the file at `path` (not yet checked to be a schema); `label` names it in each error. */
export async function readSchemaFile(path: string, label: string): Promise<unknown> {
  const bytes = await readFile(path).catch((err: unknown) => {
    const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    throw new UsageError(`${label}: cannot read it (${why})`);
  });
  if (bytes.length > MAX_SCHEMA_BYTES) throw new UsageError(`${label}: over 1 MiB, not a schema`);
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (err) {
    throw new UsageError(`${label}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}
