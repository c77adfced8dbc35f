// Compiles the JSON Schema an answer must match (already parsed) with ajv and ajv-formats: draft 2020-12
// unless `$schema` names draft-07 or 2019-09. Imported only where a schema is given: no other run loads ajv.
import type { Ajv, ErrorObject, Options } from 'ajv';
import { UsageError } from '../errors/cli-error.js';
import { MAX_SCHEMA_ERRORS, type OutputSchema } from './structured-output.js';
import type { SchemaError } from '../errors/agents-error.js';
import { errorMessage } from '../../util/text.js';

/** The drafts ajv is set up for, by their `$schema` less its scheme and trailing `#`. CommonJS modules: Node,
 * and esbuild for an ES module, give module.exports as the default (its own `default` is the class or the
 * plugin, as the types say); a named import is not kept by esbuild's split. */
const DRAFTS = new Map<string, () => Promise<new (o: Options) => Ajv>>([
  ['json-schema.org/draft/2020-12/schema', async () => (await import('ajv/dist/2020.js')).default.default],
  ['json-schema.org/draft/2019-09/schema', async () => (await import('ajv/dist/2019.js')).default.default],
  ['json-schema.org/draft-07/schema', async () => (await import('ajv')).default.default],
]);

/** ajv's error as a path and a message (an unknown property named, as ajv's message does not). */
function toSchemaError(e: ErrorObject): SchemaError {
  const extra = (e.params as { additionalProperty?: unknown }).additionalProperty;
  const named = typeof extra === 'string' ? `: ${JSON.stringify(extra)}` : '';
  return { path: e.instancePath, message: `${e.message ?? e.keyword}${named}` };
}

/** The compiled schema; one that is no JSON object or no valid schema is a UsageError naming `label`. */
export async function loadOutputSchema(schema: unknown, label = 'the schema'): Promise<OutputSchema> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UsageError(`${label}: a JSON Schema is a JSON object`);
  }
  const { $schema: uri = 'json-schema.org/draft/2020-12/schema' } = schema as { $schema?: unknown };
  const load =
    typeof uri === 'string' ? DRAFTS.get(uri.replace(/^https?:\/\//, '').replace(/#$/, '')) : undefined;
  if (load === undefined) {
    throw new UsageError(
      `${label}: $schema ${JSON.stringify(uri)} is not a draft this checks`,
      'use draft 2020-12 (the default), 2019-09 or draft-07',
    );
  }
  const Class = await load();
  const { default: formats } = await import('ajv-formats');
  // strict: false, as JSON Schema itself ignores keywords it does not know; the meta-schema still
  // catches a schema that is wrong (a bad type, a bad pattern).
  const ajv = new Class({ allErrors: true, strict: false });
  formats.default(ajv);
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    const why = errorMessage(err);
    throw new UsageError(`${label}: not a valid JSON Schema (${why})`);
  }
  return {
    text: JSON.stringify(schema),
    check(value) {
      if (validate(value)) return [];
      return (validate.errors ?? []).slice(0, MAX_SCHEMA_ERRORS).map(toSchemaError);
    },
  };
}
