// --output-schema end to end against the emulator: the instruction sent with the message, the answer taken
// and checked, a follow-up per failed try (and none once it matched), exit 5 when it never matched, the
// CI result and files, send and wait, bad schema files refused before anything is sent, --timeout between
// tries, and a property: whatever the agent replies, what is printed on exit 0 matches the schema.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { create } from '../../support/api-calls.js';
import { fixture, until, UUID } from '../../support/fixture.js';

const VERDICT = {
  type: 'object',
  properties: {
    verdict: { enum: ['approve', 'reject'] },
    reasons: { type: 'array', items: { type: 'string' } },
    at: { type: 'string', format: 'date-time' },
  },
  required: ['verdict', 'reasons'],
  additionalProperties: false,
};

const dir = () => mkdtempSync(join(tmpdir(), 'agents-schema-'));

function schemaFile(schema: unknown = VERDICT): string {
  const path = join(dir(), 'verdict.json');
  writeFileSync(path, typeof schema === 'string' ? schema : JSON.stringify(schema));
  return path;
}

/** `[[replies:…]]`: the session's final replies, turn by turn. */
const replies = (...texts: string[]) => `[[replies:${texts.map(encodeURIComponent).join('|')}]]`;

const GOOD = '{"verdict":"approve","reasons":["tests pass"]}';

const posts = (f: { em: { stats(): { byRoute: Record<string, number> } } }) => ({
  creates: f.em.stats().byRoute['POST /sessions'] ?? 0,
  followUps: f.em.stats().byRoute['POST /sessions/:id/messages'] ?? 0,
});

describe('create --output-schema', () => {
  it('matched the first time: one line of JSON, one POST and no follow-up; the instruction is in the message', async () => {
    const f = await fixture();
    const schema = schemaFile();
    const r = await f.run([
      'create',
      '-a',
      'claude',
      '--output-schema',
      schema,
      `Safe? ${replies(` \n${GOOD}\n `)}`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${GOOD}\n`);
    expect(posts(f)).toEqual({ creates: 1, followUps: 0 });
    // Part of the message, so `show` shows it.
    const shown = await f.run(['show', 'last']);
    expect(shown.stdout).toContain('Give your answer as JSON that matches this JSON Schema');
    expect(shown.stdout).toContain(JSON.stringify(VERDICT));
  });

  it('JSON in a fenced block inside prose is taken', async () => {
    const f = await fixture();
    const reply = `Looks fine.\n\n\`\`\`json\n{"verdict": "reject", "reasons": []}\n\`\`\`\nBye.`;
    const r = await f.run([
      'create',
      '-a',
      'claude',
      '--output-schema',
      schemaFile(),
      `go ${replies(reply)}`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('{"verdict":"reject","reasons":[]}\n');
  });

  it('fixed on a retry: one POST for the create and one for each follow-up, saying what was wrong', async () => {
    const f = await fixture();
    const r = await f.run([
      'create',
      '-a',
      'claude',
      '--output-schema',
      schemaFile(),
      `go ${replies('I approve.', '{"verdict":"maybe","reasons":[1]}', GOOD)}`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${GOOD}\n`);
    expect(posts(f)).toEqual({ creates: 1, followUps: 2 });
    expect(r.stderr).toContain('answer did not match the schema (no JSON found); asking again (1 of 2)');
    expect(r.stderr).toContain('answer did not match the schema (2 errors); asking again (2 of 2)');
    const shown = JSON.parse((await f.run(['show', 'last', '--json'])).stdout) as {
      messages: { role: string; message: string }[];
    };
    const asked = shown.messages.filter((m) => m.role === 'user').map((m) => m.message);
    expect(asked.slice(1)).toEqual([
      'Your answer did not match the JSON Schema: no JSON found.\nReply with the corrected JSON alone, matching the schema.',
      'Your answer did not match the JSON Schema: \n- /verdict: must be equal to one of the allowed values\n- /reasons/0: must be string\nReply with the corrected JSON alone, matching the schema.',
    ]);
  });

  it('never fixed: exit 5, stdout empty, the last errors and how to look on stderr; nothing more sent', async () => {
    const f = await fixture();
    const r = await f.run([
      'create',
      '-a',
      'claude',
      '--output-schema',
      schemaFile(),
      '--schema-retries',
      '1',
      `go ${replies('{"verdict":"approve"}')}`,
    ]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(posts(f)).toEqual({ creates: 1, followUps: 1 });
    expect(r.stderr).toContain(
      "the last answer did not match the schema:\n  (the value): must have required property 'reasons'\n",
    );
    expect(r.stderr).toContain(
      "error: the agent's answer did not match the schema after 2 tries (1 error)\n",
    );
    expect(r.stderr).toMatch(/hint: see the conversation: agents show [0-9a-f-]{36}\n/);
  });

  it('--schema-retries 0 checks the reply and sends no follow-up', async () => {
    const f = await fixture();
    const r = await f.run([
      'create',
      '-a',
      'claude',
      '--output-schema',
      schemaFile(),
      '--schema-retries',
      '0',
      'go [[reply:no]]',
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('the last answer held no JSON');
    expect(posts(f)).toEqual({ creates: 1, followUps: 0 });
  });

  it('--json: the CI result gains structured_output and schema_attempts; never matched, status schema_mismatch', async () => {
    const f = await fixture();
    const ok = await f.run([
      'create',
      '-a',
      'claude',
      '--json',
      '--output-schema',
      schemaFile(),
      `go ${replies('no', GOOD)}`,
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const result = JSON.parse(ok.stdout) as Record<string, unknown>;
    expect(ok.stdout.trim().split('\n')).toHaveLength(1);
    expect(result).toMatchObject({
      status: 'completed',
      final_message: GOOD,
      structured_output: JSON.parse(GOOD) as unknown,
      schema_attempts: 2,
    });
    expect(result.session_id).toMatch(UUID);

    const bad = await f.run([
      'create',
      '-a',
      'claude',
      '--json',
      '--output-schema',
      schemaFile(),
      '--schema-retries',
      '0',
      'go [[reply:%7B%7D]]',
    ]);
    expect(bad.code).toBe(5);
    const failed = JSON.parse(bad.stdout) as Record<string, unknown>;
    expect(failed).toMatchObject({ status: 'schema_mismatch', final_message: '{}', schema_attempts: 1 });
    expect(failed.structured_output).toBeUndefined();
    expect(failed.schema_errors).toEqual([
      { path: '', message: "must have required property 'verdict'" },
      { path: '', message: "must have required property 'reasons'" },
    ]);
  });

  it('--output FILE gets the same line as stdout', async () => {
    const f = await fixture();
    const out = join(dir(), 'answer.json');
    const r = await f.run([
      'create',
      '-a',
      'claude',
      '--output',
      out,
      '--output-schema',
      schemaFile(),
      `go ${replies(GOOD)}`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(`${GOOD}\n`);
    expect(r.stdout).toBe(`${GOOD}\n`);
  });

  it('the step summary and --github-output say the same: mismatch, errors; matched, the value', async () => {
    const d = dir();
    const summary = join(d, 'summary.md');
    const output = join(d, 'output.txt');
    writeFileSync(summary, '');
    writeFileSync(output, '');
    const f = await fixture(
      {},
      { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output },
    );
    const bad = await f.run([
      'create',
      '-a',
      'claude',
      '--github-output',
      '--output-schema',
      schemaFile(),
      '--schema-retries',
      '0',
      'go [[reply:%5B%5D]]',
    ]);
    expect(bad.code).toBe(5);
    expect(readFileSync(summary, 'utf8')).toContain(
      '- status: **the answer did not match the schema** (schema: 1 try)',
    );
    expect(readFileSync(summary, 'utf8')).toContain('- schema errors:\n  - (the value): must be object');
    expect(readFileSync(output, 'utf8')).toMatch(/status<<(\S+)\nschema_mismatch\n\1\n/);
    writeFileSync(summary, '');
    writeFileSync(output, '');
    const ok = await f.run([
      'create',
      '-a',
      'claude',
      '--github-output',
      '--output-schema',
      schemaFile(),
      `go ${replies(GOOD)}`,
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8')).toContain('**Structured output**');
    expect(readFileSync(output, 'utf8')).toMatch(
      /structured_output<<(\S+)\n\{"verdict":"approve","reasons":\["tests pass"\]\}\n\1\n/,
    );
  });

  it('bad schema files: exit 2 naming the problem, and nothing is sent', async () => {
    const f = await fixture();
    const cases: [string, RegExp][] = [
      [join(dir(), 'missing.json'), /error: --output-schema .*missing\.json: cannot read it \(ENOENT\)/],
      [schemaFile('not json'), /error: --output-schema .*verdict\.json: not JSON/],
      [schemaFile({ type: 'strin' }), /error: --output-schema .*: not a valid JSON Schema/],
      [schemaFile({ $schema: 'http://json-schema.org/draft-04/schema#' }), /is not a draft this checks/],
    ];
    for (const [path, message] of cases) {
      const r = await f.run(['create', '-a', 'claude', '--output-schema', path, 'hello']);
      expect(r.code, path).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    const usage = [
      ['--schema-retries', '1', 'hello'],
      ['--output-schema', schemaFile(), '--schema-retries', '11', 'hello'],
      ['--output-schema', schemaFile(), '--follow', 'hello'],
    ];
    for (const args of usage) expect((await f.run(['create', '-a', 'claude', ...args])).code).toBe(2);
    expect(f.em.stats().requests).toBe(0);
  });

  it('--timeout running out between tries: 124, naming the session; the turn after the follow-up never ended', async () => {
    const f = await fixture({ turnMsPerRequest: 0 });
    let ended = false;
    const r = await f.run(
      [
        'create',
        '-a',
        'claude',
        '--timeout',
        '2s',
        '--output-schema',
        schemaFile(),
        `go ${replies('prose')}`,
      ],
      {
        onStart: () =>
          void until(() => f.em.heldTurnEvents() > 0).then(() => {
            // The first turn alone ends (with prose); the follow-up's turn is held until the deadline.
            f.em.endTurns();
            ended = true;
          }),
      },
    );
    expect(ended).toBe(true);
    expect(r.code, r.stderr).toBe(124);
    expect(posts(f)).toEqual({ creates: 1, followUps: 1 });
    expect(r.stderr).toMatch(/error: timed out after 2s waiting on session [0-9a-f-]{36}/);
    expect(r.stdout).toBe('');
  });
});

describe('send and wait --output-schema', () => {
  it('send: the follow-up carries the instruction, and its answer is asked for again in the same session', async () => {
    const f = await fixture();
    const s = await create(f.em, 'start [[reply:hi]]');
    f.em.endTurns(s.id);
    const r = await f.run([
      'send',
      s.id,
      '--output-schema',
      schemaFile(),
      `now judge ${replies('nope', GOOD)}`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${GOOD}\n`);
    expect(posts(f)).toEqual({ creates: 1, followUps: 2 });
    const users = f.em.messages(s.id).filter((m) => m.role === 'user');
    expect(users[1]!.message).toContain('Give your answer as JSON that matches this JSON Schema');
  });

  it('wait: each reply checked and printed as its JSON; one that does not match makes the exit 5; nothing is sent', async () => {
    const f = await fixture();
    const good = await create(f.em, `a ${replies(GOOD)}`);
    const bad = await create(f.em, `b ${replies('```json\n{"verdict": 1}\n```')}`);
    f.em.endTurns();
    const r = await f.run(['wait', good.id, bad.id, '--output-schema', schemaFile()]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe(`${GOOD}\n`);
    expect(r.stderr).toContain(
      `session ${bad.id}: the agent's answer did not match the schema: (the value): must have required property 'reasons'`,
    );
    expect(posts(f)).toEqual({ creates: 2, followUps: 0 });
    const json = await f.run(['--json', 'wait', good.id, '--output-schema', schemaFile()]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      session: good.id,
      structured_output: JSON.parse(GOOD) as unknown,
    });
  });
});

describe('property: what is printed on exit 0 matches the schema', () => {
  it('whatever the agent replies on each try', async () => {
    const f = await fixture();
    const schema = schemaFile();
    const value = fc.oneof(
      fc.record({
        verdict: fc.constantFrom('approve', 'reject', 'maybe'),
        reasons: fc.array(fc.string(), { maxLength: 3 }),
      }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const reply = fc.oneof(
      fc.string({ maxLength: 40 }),
      value.map((v) => JSON.stringify(v)),
      fc
        .tuple(fc.string({ maxLength: 20 }), value)
        .map(([t, v]) => `${t}\n\`\`\`json\n${JSON.stringify(v)}\n\`\`\`\n`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(reply, { minLength: 1, maxLength: 3 }), async (texts) => {
        const r = await f.run([
          'create',
          '-a',
          'claude',
          '--output-schema',
          schema,
          `go ${replies(...texts)}`,
        ]);
        expect([0, 5]).toContain(r.code);
        if (r.code !== 0) {
          expect(r.stdout).toBe('');
          return;
        }
        expect(r.stdout.endsWith('\n') && !r.stdout.slice(0, -1).includes('\n')).toBe(true);
        const v = JSON.parse(r.stdout) as { verdict: unknown; reasons: unknown[] };
        expect(Object.keys(v).sort()).toEqual(['reasons', 'verdict']);
        expect(['approve', 'reject']).toContain(v.verdict);
        expect(v.reasons.every((x) => typeof x === 'string')).toBe(true);
      }),
      { numRuns: 12 },
    );
  });
});
