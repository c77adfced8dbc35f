// What was wrong with a reply checked against a JSON Schema, as data: what sessions/ finds and output/,
// the MCP tools and the CI result report.

/** One error of the schema's check: where in the value (a JSON Pointer, '' for the whole) and what. */
export interface SchemaError {
  path: string;
  message: string;
}

/** What was wrong with a reply checked against a schema: no JSON in it, or the schema's errors. */
export type SchemaProblem = { kind: 'no-json' } | { kind: 'mismatch'; errors: SchemaError[] };
