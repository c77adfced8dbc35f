// Answers checked against a JSON Schema, the pure parts: the JSON taken from a reply (whole, or the last
// fenced block that parses; never a fragment of prose), the schema compiled from a file or a value (drafts,
// formats, $ref; bad schemas refused as usage errors), the instruction and the follow-up's text, and a
// property: whatever the reply, a value said to match does match.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors/cli-error.js';
import {
  checkReply,
  extractJson,
  schemaFollowUp,
  withSchemaInstruction,
} from '../../src/core/sessions/structured-output.js';
import { loadOutputSchema } from '../../src/core/sessions/output-schema.js';
import { loadSchemaOption } from '../../src/cli/commands/options/reply-options.js';

const VERDICT = {
  type: 'object',
  properties: {
    verdict: { enum: ['approve', 'reject'] },
    reasons: { type: 'array', items: { type: 'string' } },
  },
  required: ['verdict', 'reasons'],
  additionalProperties: false,
};

describe('the JSON of a reply', () => {
  it('is the whole reply when it parses, white space around it or not', () => {
    expect(extractJson('  \n{"a": 1}\n\n')).toEqual({ found: true, value: { a: 1 } });
    expect(extractJson('[1,2]')).toEqual({ found: true, value: [1, 2] });
  });

  it('else the fenced block in the prose (```json or plain ```)', () => {
    const reply = 'Here is my verdict:\n\n```json\n{"verdict": "approve"}\n```\n\nThanks!';
    expect(extractJson(reply)).toEqual({ found: true, value: { verdict: 'approve' } });
    expect(extractJson('See:\n```\n[true]\n```')).toEqual({ found: true, value: [true] });
  });

  it('the last of two blocks that parses; a block in another language is not an answer', () => {
    const reply = '```json\n{"n": 1}\n```\nthen\n```json\n{"n": 2}\n```\n```json\n{oops\n```\n```ts\n3\n```';
    expect(extractJson(reply)).toEqual({ found: true, value: { n: 2 } });
  });

  it('never a fragment cut out of prose', () => {
    expect(extractJson('The answer is {"verdict": "approve"} as you can see.')).toEqual({ found: false });
    expect(extractJson('')).toEqual({ found: false });
    expect(extractJson('no json here')).toEqual({ found: false });
  });
});

describe('a schema compiled', () => {
  it('checks format (date-time, email) and $ref, 2020-12 by default', async () => {
    const s = await loadOutputSchema({
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time' }, who: { $ref: '#/$defs/email' } },
      required: ['at', 'who'],
      $defs: { email: { type: 'string', format: 'email' } },
    });
    expect(s.check({ at: '2026-11-25T10:00:00Z', who: 'a@example.com' })).toEqual([]);
    const errors = s.check({ at: 'yesterday', who: 'nobody' });
    expect(errors.map((e) => e.path).sort()).toEqual(['/at', '/who']);
    expect(errors[0]!.message).toMatch(/must match format/);
    // 2020-12's prefixItems exists only there.
    const tuple = await loadOutputSchema({ prefixItems: [{ type: 'string' }], items: false });
    expect(tuple.check(['a', 'b'])).toHaveLength(1);
  });

  it('draft-07 when $schema says so (items as an array is draft-07 tuple syntax)', async () => {
    const s = await loadOutputSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }],
      additionalItems: false,
    });
    expect(s.check(['x'])).toEqual([]);
    expect(s.check([1])).toHaveLength(1);
    expect(s.check(['x', 'y'])).toHaveLength(1);
    const s19 = await loadOutputSchema({
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'null',
    });
    expect(s19.check(null)).toEqual([]);
  });

  it('names an unknown property, and lists at most 10 errors', async () => {
    const s = await loadOutputSchema(VERDICT);
    expect(s.check({ verdict: 'approve', reasons: [], extra: 1 })).toEqual([
      { path: '', message: 'must NOT have additional properties: "extra"' },
    ]);
    const many = await loadOutputSchema({ type: 'array', items: { type: 'string' } });
    expect(many.check(Array.from({ length: 30 }, (_, i) => i))).toHaveLength(10);
  });

  it('from a file; a file that cannot be read, is not JSON or is not a valid schema is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agents-schema-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    // A file is the CLI's to read (--output-schema FILE); the core compiles what it parsed.
    const load = (source: string | Record<string, unknown>) =>
      typeof source === 'string' ? loadSchemaOption(source) : loadOutputSchema(source);
    const good = await load(file('ok.json', JSON.stringify(VERDICT)));
    expect(good.text).toBe(JSON.stringify(VERDICT));
    const refused = async (source: string | Record<string, unknown>, pattern: RegExp) => {
      const err = await load(source).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(pattern);
    };
    await refused(join(dir, 'missing.json'), /missing\.json: cannot read it \(ENOENT\)/);
    await refused(dir, /cannot read it \(EISDIR\)/);
    await refused(file('prose.json', 'a verdict please'), /prose\.json: not JSON/);
    await refused(file('array.json', '[]'), /a JSON Schema is a JSON object/);
    await refused(file('type.json', '{"type": "strin"}'), /not a valid JSON Schema/);
    await refused(file('ref.json', '{"$ref": "#/$defs/nope"}'), /not a valid JSON Schema/);
    await refused({ $schema: 'http://json-schema.org/draft-04/schema#' }, /is not a draft this checks/);
  });
});

describe('the text sent', () => {
  it('the message, then the one instruction with the schema on one line', () => {
    expect(withSchemaInstruction('Is it safe?', { text: '{"type":"object"}' })).toBe(
      'Is it safe?\n\nGive your answer as JSON that matches this JSON Schema, as the whole reply or in a ```json block at its end:\n{"type":"object"}',
    );
  });

  it('docs/scripting.md quotes the instruction as it is sent, and the README points there', () => {
    const sent = withSchemaInstruction('', { text: '' }).trim();
    const doc = (name: string) => readFileSync(join(import.meta.dirname, '../..', name), 'utf8');
    expect(doc('docs/scripting.md')).toContain(sent);
    expect(doc('README.md')).toMatch(/--output-schema[^]*\(docs\/scripting\.md\)/);
  });

  it('a follow-up says what was wrong and asks for the JSON alone', () => {
    expect(schemaFollowUp({ kind: 'no-json' })).toBe(
      'Your answer did not match the JSON Schema: no JSON found.\nReply with the corrected JSON alone, matching the schema.',
    );
    const text = schemaFollowUp({
      kind: 'mismatch',
      errors: [
        { path: '', message: "must have required property 'reasons'" },
        { path: '/verdict', message: 'must be equal to one of the allowed values' },
      ],
    });
    expect(text).toBe(
      "Your answer did not match the JSON Schema: \n- (the value): must have required property 'reasons'\n- /verdict: must be equal to one of the allowed values\nReply with the corrected JSON alone, matching the schema.",
    );
  });
});

describe('property: a value said to match, matches', () => {
  it('whatever the reply (prose, fences, JSON, junk), an ok check holds a value the schema accepts', async () => {
    const schema = await loadOutputSchema(VERDICT);
    const validate = (v: unknown) =>
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.keys(v).every((k) => k === 'verdict' || k === 'reasons') &&
      ['approve', 'reject'].includes((v as { verdict?: unknown }).verdict as string) &&
      Array.isArray((v as { reasons?: unknown }).reasons) &&
      (v as { reasons: unknown[] }).reasons.every((r) => typeof r === 'string');
    const value = fc.oneof(
      fc.record({ verdict: fc.constantFrom('approve', 'reject', 'maybe'), reasons: fc.array(fc.string()) }),
      fc.jsonValue(),
    );
    const piece = fc.oneof(
      fc.string(),
      value.map((v) => JSON.stringify(v)),
      value.map((v) => `\`\`\`json\n${JSON.stringify(v, null, 2)}\n\`\`\``),
      value.map((v) => `\`\`\`\n${JSON.stringify(v)}\n\`\`\``),
      fc.constantFrom('```', '```json', '\n', '{', '}', '~~~'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const checked = checkReply(pieces.join('\n'), schema);
        if (checked.ok) {
          expect(validate(checked.value)).toBe(true);
          // What is printed (one line of JSON) reads back as the same value.
          expect(JSON.parse(JSON.stringify(checked.value))).toEqual(checked.value);
        } else if (checked.problem.kind === 'mismatch') {
          expect(checked.problem.errors.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
