// output_schema on the MCP tools that wait, over the SDK's own Client and `agents mcp` in-process against the
// emulator: matched at once, fixed on a follow-up, never matched, a wait that runs out between tries,
// wait_for_reply that checks and sends nothing, and bad schemas refused before anything is sent.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, endTurn } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { FAST_TUNING } from '../../support/main.js';
import { cliEnv } from '../../support/run-cli.js';
import { mcpInProcess, textOf, type McpRun } from '../../support/mcp-client.js';
import { until } from '../../support/fixture.js';

const runs: McpRun[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((r) => r.close()));
});

async function start(em: RunningEmulator) {
  const run = await mcpInProcess(cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY }), FAST_TUNING);
  runs.push(run);
  // The client checks each structuredContent against the tool's outputSchema once it has listed them.
  await run.client.listTools();
  return run;
}

const VERDICT = {
  type: 'object',
  properties: {
    verdict: { enum: ['approve', 'reject'] },
    reasons: { type: 'array', items: { type: 'string' } },
  },
  required: ['verdict', 'reasons'],
  additionalProperties: false,
};
const GOOD = { verdict: 'approve', reasons: ['tests pass'] };

/** `[[replies:…]]`: the session's final replies, turn by turn. */
const replies = (...texts: string[]) => `[[replies:${texts.map(encodeURIComponent).join('|')}]]`;

const posts = (em: RunningEmulator) => ({
  creates: em.stats().byRoute['POST /sessions'] ?? 0,
  followUps: em.stats().byRoute['POST /sessions/:id/messages'] ?? 0,
});

type Turn = Record<string, unknown> & { session_id: string; thread_id: string };
const turnOf = (r: { structuredContent?: unknown }) => r.structuredContent as Turn;

/** The user messages of a session, oldest first, as show_session reads them. */
async function userMessages(mcp: McpRun, session: string) {
  const shown = await mcp.call('show_session', { session });
  const { messages } = shown.structuredContent as {
    messages: { role: string; message: string; chat_thread_id: string }[];
  };
  return messages.filter((m) => m.role === 'user');
}

describe('agents mcp output_schema', () => {
  it('matched the first time: structured_output, one line of JSON, one POST and no follow-up', async () => {
    const em = await emulator();
    const mcp = await start(em);
    // No wait_seconds: output_schema waits (60 s), as --output-schema implies --wait.
    const r = await mcp.call('create_session', {
      agent: 'claude',
      message: `Safe to merge? ${replies(`Looks fine.\n\n\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\``)}`,
      output_schema: VERDICT,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(turnOf(r)).toMatchObject({ status: 'completed', structured_output: GOOD, schema_attempts: 1 });
    expect(turnOf(r).final_message).toContain('Looks fine.');
    expect(textOf(r)).toBe(JSON.stringify(GOOD));
    expect(posts(em)).toEqual({ creates: 1, followUps: 0 });
    // The fixed instruction carries the schema, in the message itself.
    const [first] = await userMessages(mcp, turnOf(r).session_id);
    expect(first!.message).toContain('Give your answer as JSON that matches this JSON Schema');
    expect(first!.message).toContain(JSON.stringify(VERDICT));
  });

  it('fixed on a retry: a follow-up per wrong answer says what was wrong; the result is the last turn', async () => {
    const em = await emulator();
    const mcp = await start(em);
    const r = await mcp.call('create_session', {
      agent: 'codex',
      message: `Verdict? ${replies('I approve.', '{"verdict":"maybe","reasons":[]}', JSON.stringify(GOOD))}`,
      output_schema: VERDICT,
      wait_seconds: 120,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(turnOf(r)).toMatchObject({ status: 'completed', structured_output: GOOD, schema_attempts: 3 });
    expect(posts(em)).toEqual({ creates: 1, followUps: 2 });
    const asked = await userMessages(mcp, turnOf(r).session_id);
    expect(asked).toHaveLength(3);
    expect(asked[1]!.message).toMatch(/did not match the JSON Schema: no JSON found/);
    expect(asked[2]!.message).toMatch(/\/verdict: must be equal to one of the allowed values/);
    // The result is about the turn that matched: the second follow-up's.
    expect(turnOf(r).thread_id).toBe(asked[2]!.chat_thread_id);
  });

  it('never matched: status schema_mismatch with the last errors, after schema_retries follow-ups', async () => {
    const em = await emulator();
    const mcp = await start(em);
    const created = await mcp.call('create_session', { agent: 'claude', message: '[[reply:hi]] start' });
    const id = turnOf(created).session_id;
    endTurn(em, id);
    const r = await mcp.call('send_message', {
      session: id,
      message: `Verdict? ${replies('No idea.', '{"verdict":"maybe","reasons":[]}')}`,
      output_schema: VERDICT,
      schema_retries: 1,
      wait_seconds: 120,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const t = turnOf(r);
    expect(t).toMatchObject({
      session_id: id,
      status: 'schema_mismatch',
      final_message: '{"verdict":"maybe","reasons":[]}',
      schema_attempts: 2,
    });
    expect(t.schema_errors).toEqual([
      { path: '/verdict', message: 'must be equal to one of the allowed values' },
    ]);
    expect(t).not.toHaveProperty('structured_output');
    expect(textOf(r)).toMatch(/did not match output_schema after 2 tries \(1 error\)/);
    // The send, and one follow-up: nothing more once the tries ran out.
    expect(posts(em)).toEqual({ creates: 1, followUps: 2 });
  });

  it('a wait that runs out after a follow-up is "running" on the follow-up\'s turn; wait_for_reply checks it', async () => {
    const em = await emulator({ turnMsPerRequest: 0 });
    const mcp = await start(em);
    let ended = false;
    // The first turn alone ends (with prose); the follow-up's turn is held until the wait has run out.
    void until(() => em.heldTurnEvents() > 0).then(() => {
      em.endTurns();
      ended = true;
    });
    const r = await mcp.call('create_session', {
      agent: 'claude',
      message: `Verdict? ${replies('prose', JSON.stringify(GOOD))}`,
      output_schema: VERDICT,
      wait_seconds: 4,
    });
    expect(ended).toBe(true);
    expect(r.isError, textOf(r)).toBeFalsy();
    const running = turnOf(r);
    expect(running).toMatchObject({ status: 'running', final_message: null, schema_attempts: 1 });
    const asked = await userMessages(mcp, running.session_id);
    expect(asked).toHaveLength(2);
    expect(running.thread_id).toBe(asked[1]!.chat_thread_id);

    endTurn(em, running.session_id);
    const waited = await mcp.call('wait_for_reply', { session: running.session_id, output_schema: VERDICT });
    expect(turnOf(waited)).toMatchObject({
      thread_id: running.thread_id,
      status: 'completed',
      structured_output: GOOD,
    });
    expect(posts(em)).toEqual({ creates: 1, followUps: 1 });
  });

  it('wait_for_reply checks the reply against output_schema and sends no follow-up', async () => {
    const em = await emulator();
    const mcp = await start(em);
    const created = await mcp.call('create_session', {
      agent: 'claude',
      message: `[[reply:${encodeURIComponent('Not JSON at all.')}]] go`,
    });
    const id = turnOf(created).session_id;
    endTurn(em, id);
    const r = await mcp.call('wait_for_reply', { session: id, output_schema: VERDICT });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(turnOf(r)).toMatchObject({
      thread_id: turnOf(created).thread_id,
      status: 'schema_mismatch',
      final_message: 'Not JSON at all.',
      schema_attempts: 1,
      schema_errors: [{ path: '', message: 'no JSON found' }],
    });
    // The create's POST alone: a wait never asks again.
    expect(posts(em)).toEqual({ creates: 1, followUps: 0 });

    const good = await mcp.call('create_session', {
      agent: 'claude',
      message: `[[reply:${encodeURIComponent(JSON.stringify(GOOD))}]] go`,
    });
    endTurn(em, turnOf(good).session_id);
    const matched = await mcp.call('wait_for_reply', {
      session: turnOf(good).session_id,
      output_schema: VERDICT,
      wait_seconds: 0,
    });
    expect(turnOf(matched)).toMatchObject({
      status: 'completed',
      structured_output: GOOD,
      schema_attempts: 1,
    });
    expect(textOf(matched)).toBe(JSON.stringify(GOOD));
  });

  it('a bad schema or schema_retries is an isError result of one line, and nothing is sent', async () => {
    const em = await emulator();
    const mcp = await start(em);
    const session = randomUUID();
    const bad: [string, Record<string, unknown>, RegExp][] = [
      [
        'create_session',
        { agent: 'claude', message: 'hi', output_schema: { type: 'nope' } },
        /^error: output_schema: not a valid JSON Schema/,
      ],
      [
        'send_message',
        { session, message: 'hi', output_schema: { $schema: 'http://example.com/mine' } },
        /^error: output_schema: \$schema "http:\/\/example.com\/mine" is not a draft this checks; hint: use draft 2020-12/,
      ],
      [
        'wait_for_reply',
        { session, output_schema: { properties: { a: { pattern: '(' } } } },
        /^error: output_schema: not a valid JSON Schema/,
      ],
      [
        'create_session',
        { agent: 'claude', message: 'hi', output_schema: '{"type":"object"}' },
        /^error: output_schema must be a JSON Schema: a JSON object$/,
      ],
      [
        'create_session',
        { agent: 'claude', message: 'hi', output_schema: VERDICT, schema_retries: 11 },
        /^error: schema_retries must be a whole number from 0 to 10$/,
      ],
      [
        'send_message',
        { session, message: 'hi', schema_retries: 1 },
        /^error: schema_retries needs output_schema$/,
      ],
      [
        'wait_for_reply',
        { session, output_schema: VERDICT, schema_retries: 1 },
        /^error: wait_for_reply takes no argument "schema_retries"/,
      ],
    ];
    for (const [name, args, pattern] of bad) {
      const r = await mcp.call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toMatch(pattern);
      expect(textOf(r)).not.toContain('\n');
    }
    expect(em.stats().requests).toBe(0);
  });
});
