// Answers checked against a JSON Schema: the instruction sent with the message, the JSON taken from a reply,
// the follow-up that says what was wrong. Pure and light; output-schema.ts compiles the schema (ajv).
import type { SchemaError } from '../errors/agents-error.js';
import type { SchemaProblem } from '../events/session-items.js';

export interface OutputSchema {
  /** The schema as the instruction carries it: its JSON on one line. */
  readonly text: string;
  /** The errors of `value` (at most MAX_SCHEMA_ERRORS); none when it matches. */
  check(value: unknown): SchemaError[];
}

/** The most errors a follow-up (and a result) lists: enough to fix, not a wall of text. */
export const MAX_SCHEMA_ERRORS = 10;

/** --schema-retries: its default and its most. */
export const DEFAULT_SCHEMA_RETRIES = 2;
export const MAX_SCHEMA_RETRIES = 10;

/** The user's message, then the one fixed instruction that carries the schema. */
export function withSchemaInstruction(message: string, schema: Pick<OutputSchema, 'text'>): string {
  return `${message}\n\nGive your answer as JSON that matches this JSON Schema, as the whole reply or in a \`\`\`json block at its end:\n${schema.text}`;
}

/** The follow-up after a reply that did not give the JSON: what was wrong, and a request for the JSON alone. */
export function schemaFollowUp(problem: SchemaProblem): string {
  const what =
    problem.kind === 'no-json'
      ? 'no JSON found.'
      : `\n${problem.errors.map((e) => `- ${schemaErrorLine(e)}`).join('\n')}`;
  return `Your answer did not match the JSON Schema: ${what}\nReply with the corrected JSON alone, matching the schema.`;
}

/** One error as a line: its path (or "the value") and ajv's message. */
export function schemaErrorLine(e: SchemaError): string {
  return `${e.path === '' ? '(the value)' : e.path}: ${e.message}`;
}

/** A reply with no JSON in it: its summary, and the one error listed for it. */
export const NO_JSON = 'no JSON found';

export type Extracted = { found: true; value: unknown } | { found: false };

const OPEN = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;

/** The bodies of the text's ```json (or plain ```) fenced blocks, in order. */
function jsonBlocks(text: string): string[] {
  const blocks: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const open = OPEN.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const close = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}[ \\t]*$`);
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j]!)) j += 1;
    // An unclosed fence runs to the end of the text, as in CommonMark.
    if (['json', ''].includes(open[2]!.toLowerCase())) blocks.push(lines.slice(i + 1, j).join('\n'));
    i = j;
  }
  return blocks;
}

/** The whole reply, else its last ```json (or plain ```) block that parses; never a brace out of prose. */
export function extractJson(reply: string): Extracted {
  for (const text of [reply, ...jsonBlocks(reply).reverse()]) {
    try {
      return { found: true, value: JSON.parse(text.trim()) as unknown };
    } catch {
      // Not JSON: the next one.
    }
  }
  return { found: false };
}

export type OutputCheck = { ok: true; value: unknown } | { ok: false; problem: SchemaProblem };

export function checkReply(reply: string, schema: OutputSchema): OutputCheck {
  const got = extractJson(reply);
  if (!got.found) return { ok: false, problem: { kind: 'no-json' } };
  const errors = schema.check(got.value);
  return errors.length === 0
    ? { ok: true, value: got.value }
    : { ok: false, problem: { kind: 'mismatch', errors } };
}
