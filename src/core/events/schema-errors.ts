import type { SchemaError } from '../errors/agents-error.js';

export type { SchemaError };

/** What was wrong with a reply checked against a schema: no JSON in it, or the schema's errors. */
export type SchemaProblem = { kind: 'no-json' } | { kind: 'mismatch'; errors: SchemaError[] };
