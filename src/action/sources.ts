// What the Action reads from the workspace before it sends anything: the prompt (prompt, or prompt_file
// read by the reader the CLI uses too: valid UTF-8, not empty) and output_schema's JSON (the schema-file reader
// of --output-schema: bounded, parsed). Each failure is a UsageError naming the input.
import { Readable } from 'node:stream';
import { UsageError } from '../sdk/index.js';
import type { JsonSchema } from '../sdk/index.js';
import { readMessage, readSchemaFile } from '../core/index.js';
import type { ActionInputs } from './inputs.js';

/** The message to send: the prompt input, or the text of prompt_file. */
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

/** output_schema's JSON (checked as a schema by the library, before anything is sent); undefined without it. */
export async function schemaOf(i: ActionInputs): Promise<JsonSchema | undefined> {
  if (i.schema === undefined) return undefined;
  const label = `input output_schema (${i.schema.file})`;
  const value = await readSchemaFile(i.schema.file, label);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${label}: a JSON Schema is a JSON object`);
  }
  return value as JsonSchema;
}
