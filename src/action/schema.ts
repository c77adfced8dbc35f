// THE ONE PLACE where the schema-checked answer (issue 31: `--output-schema`, `--schema-retries`) plugs into
// the Action. Inputs output_schema and schema_retries arrive here checked (inputs.ts); the checking itself is
// the CLI's. Until issue 31 is merged, a given output_schema fails the step before anything is sent.
import { UsageError } from '../cli-error.js';
import type { ActionInputs } from './inputs.js';

/**
 * The command-line flags that ask `agents create|send --wait --json` for a schema-checked answer.
 * Issue 31 plugs in here: return `['--output-schema', schema.file, '--schema-retries', String(schema.retries)]`
 * once the CLI has those flags (and drop the error).
 */
export function schemaFlags(schema: ActionInputs['schema']): string[] {
  if (schema === undefined) return [];
  throw new UsageError(
    'input output_schema is not supported by this build of the action yet',
    'the schema-checked answer (agents --output-schema, issue 31) is not merged: remove output_schema for now',
  );
}

/**
 * The structured_output output: the checked value of the `--wait --json` result (issue 31 puts it in the
 * result's `structured_output`), as one line of JSON; undefined without a schema.
 */
export function structuredOutput(result: Record<string, unknown> | undefined): string | undefined {
  if (result === undefined || !('structured_output' in result)) return undefined;
  return JSON.stringify(result.structured_output);
}
