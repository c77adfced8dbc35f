// What the Action reads from the workspace before it sends anything, with the readers the CLI uses too (a
// prompt file valid UTF-8 and not empty; a schema file bounded and parsed); each failure a UsageError naming the input.
import { Readable } from 'node:stream';
import { UsageError, type JsonSchema } from '../sdk/index.js';
import { readMessage, readSchemaFile } from '../core/index.js';
import type { ActionInputs } from './inputs.js';

export async function promptOf(i: ActionInputs): Promise<string> {
  if (i.promptFile === undefined) return i.prompt ?? '';
  return readMessage({
    args: [],
    file: i.promptFile,
    fileLabel: `input prompt_file (${i.promptFile})`,
    stdin: Readable.from([]),
    interactive: false,
    prompt: () => Promise.reject(new UsageError('input prompt (or prompt_file) is needed')),
  });
}

/** output_schema's JSON (checked as a schema by the library, before anything is sent). */
export async function schemaOf(i: ActionInputs): Promise<JsonSchema | undefined> {
  if (i.schema === undefined) return undefined;
  const label = `input output_schema (${i.schema.file})`;
  const value = await readSchemaFile(i.schema.file, label);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${label}: a JSON Schema is a JSON object`);
  }
  return value as JsonSchema;
}
