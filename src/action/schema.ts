// Where the schema-checked answer plugs into the Action: output_schema and schema_retries become the CLI's
// own --output-schema and --schema-retries, and the result's structured_output becomes the step's output.
import type { ActionInputs } from './inputs.js';

/** The command-line flags that ask `agents create|send --wait --json` for a schema-checked answer. */
export function schemaFlags(schema: ActionInputs['schema']): string[] {
  if (schema === undefined) return [];
  return ['--output-schema', schema.file, '--schema-retries', String(schema.retries)];
}

/**
 * The structured_output output: the checked value of the `--wait --json` result, as one line of JSON;
 * undefined without a schema, or when none matched.
 */
export function structuredOutput(result: Record<string, unknown> | undefined): string | undefined {
  if (result === undefined || !('structured_output' in result)) return undefined;
  return JSON.stringify(result.structured_output);
}
