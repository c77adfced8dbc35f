// The GitHub Action in-process (runAction, as the bundle runs it), against the emulator: its session work
// is the library's public entry (src/sdk), so a regression of the library fails these tests. Turns are held
// (they end when a request moves them on); the time-outs are a second or so of timeout_minutes, never a
// wait for a turn on the wall clock. test/process/action.test.ts runs the bundle itself, as a runner does.
import { describe, expect, it } from 'vitest';
import { fixture, UUID } from '../../support/fixture.js';
import { KEY } from '../../support/key.js';
import { until } from '../../support/until.js';
import { declared, expectKeyKept } from '../../support/action.js';
import { runActionInProcess as runAction } from '../../support/action-main.js';

const base = (url: string) => ({ blocks_api_key: KEY, api_base_url: url });
const VERDICT = JSON.stringify({
  type: 'object',
  properties: { verdict: { enum: ['approve', 'reject'] } },
  required: ['verdict'],
});

/** The log's lines between the stop-commands pair: what the runner reads as text only. */
function quoted(log: string): string[] {
  const lines = log.split('\n');
  const start = lines.findIndex((l) => l.startsWith('::stop-commands::'));
  const token = lines[start]?.slice('::stop-commands::'.length);
  const end = lines.indexOf(`::${token}::`);
  expect(start, log).toBeGreaterThanOrEqual(0);
  expect(end, log).toBeGreaterThan(start);
  return lines.slice(start + 1, end);
}

describe('the GitHub Action, in-process', () => {
  it('posts a follow-up on session_id, reads the prompt from prompt_file, and says agent is ignored', async () => {
    const f = await fixture();
    const first = await f.run(['create', '-a', 'claude', 'Open a pull request']);
    const id = first.stdout.trim();
    f.em.addPullRequest(id, 'https://github.com/o/r/pull/7');
    const run = await runAction(
      { ...base(f.em.url), session_id: id, agent: 'codex', prompt_file: 'task.md' },
      { files: { 'task.md': 'Now add tests [[reply:Tests%20added.]]' } },
    );
    expect(run.code).toBe(0);
    expect(run.errors).toEqual([]);
    expect(run.warnings).toEqual([
      "::warning::input agent is ignored with session_id: a follow-up keeps its session's",
    ]);
    expect(run.outputs).toMatchObject({
      session_id: id,
      final_message: 'Tests added.',
      pull_requests: '["https://github.com/o/r/pull/7"]',
      status: 'completed',
    });
    // A follow-up's address is not known before the wait: it is written once the session was read.
    expect(run.outputs.session_html_url).toContain(`/sessions/${id}`);
    expect(quoted(run.stdout)[0]).toBe(`Waiting for the reply on session ${id}`);
    const threads = new Set(f.em.messages(id).map((m) => m.chat_thread_id));
    expect(threads.size).toBe(2);
    expect(threads).toContain(run.outputs.thread_id);
    expect(f.em.stats()).toMatchObject({ sessionsCreated: 1, followUps: 1 });
    // wait: true, `result` is the CLI's `--wait --json`: the final Message's fields, then the result's.
    expect(JSON.parse(run.outputs.result ?? '')).toMatchObject({
      role: 'assistant',
      type: 'final_message',
      session_id: id,
      pull_requests: ['https://github.com/o/r/pull/7'],
    });
    expectKeyKept(run, KEY);
  });

  it('logs the wait as the CLI does: the session and its address, then "still waiting" as it goes', async () => {
    const { em } = await fixture({ dialect: 'live' });
    const run = await runAction(
      { ...base(em.url), agent: 'claude', prompt: '[[think:4000]] [[reply:done]]' },
      // A heartbeat every millisecond (the CLI's lines, core/events/progress.ts): the wait's polls outlast a few.
      { tuning: { heartbeatMs: 1 } },
    );
    expect(run.code).toBe(0);
    const [waiting, ...rest] = quoted(run.stdout);
    const { session_id: id, session_html_url: url } = run.outputs;
    expect(waiting).toBe(`Waiting for claude on session ${id} (${url})`);
    expect(rest.length).toBeGreaterThan(0);
    for (const line of rest) expect(line).toMatch(/^still waiting \(\d+m?s\)$/);
  });

  it('times out: status timed_out, the ids set; exit 1 with fail_on_timeout, exit 0 and a warning without', async () => {
    const { em } = await fixture({ turnMsPerRequest: 0 });
    // Both steps on one emulator, a second of the wall clock each (in-process steps take turns: the
    // toolkit's environment and log are the process's, see test/support/action-main.ts).
    const runs = await Promise.all(
      [true, false].map((fail) =>
        runAction({
          ...base(em.url),
          agent: 'claude',
          prompt: '[[never]] a turn that does not end',
          timeout_minutes: '0.02',
          fail_on_timeout: String(fail),
        }),
      ),
    );
    for (const [run, fail] of [
      [runs[0]!, true],
      [runs[1]!, false],
    ] as const) {
      expect(run.code).toBe(fail ? 1 : 0);
      const [errors, warnings] = fail ? [run.errors, run.warnings] : [run.warnings, run.errors];
      expect(warnings).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^::(error|warning)::timed out after .* waiting on session .*%0Ahint: /);
      expect(run.outputs).toMatchObject({ status: 'timed_out', final_message: '', pull_requests: '[]' });
      expect(run.outputs.session_id).toMatch(UUID);
      expect(JSON.parse(run.outputs.result ?? '')).toMatchObject({
        status: 'timed_out',
        final_message: null,
      });
      expect(run.summary).toContain('timed out');
      expectKeyKept(run, KEY);
    }
  });

  const G = '0b5e6f0e-3c7a-4d7e-9d8e-2f1a3b4c5d6e';
  it.each([
    ['no agent', { prompt: 'hello' }, {}, /input agent \(or agent_id\) is needed/],
    ['both agent and agent_id', { agent: 'claude', agent_id: G, prompt: 'hello' }, {}, /exclude each other/],
    ['no prompt', { agent: 'claude' }, {}, /input prompt \(or prompt_file\) is needed/],
    [
      'an output_schema not in the workspace',
      { agent: 'claude', prompt: 'hello', output_schema: 'schema.json' },
      {},
      /no file schema.json in the workspace/,
    ],
    [
      'an output_schema that is not JSON',
      { agent: 'claude', prompt: 'hello', output_schema: 'schema.json' },
      { 'schema.json': '{ nope' },
      /input output_schema \(.*schema.json\): not JSON/,
    ],
    [
      'an output_schema that is no schema',
      { agent: 'claude', prompt: 'hello', output_schema: 'schema.json' },
      { 'schema.json': '{"type":"nonsense"}' },
      /not a valid JSON Schema/,
    ],
    [
      'an empty prompt_file',
      { agent: 'claude', prompt_file: 'task.md' },
      { 'task.md': '\n' },
      /the message from input prompt_file \(.*task.md\) is empty/,
    ],
    [
      'a title over 200 characters',
      { agent: 'claude', prompt: 'hello', title: 'x'.repeat(201) },
      {},
      /at most 200/,
    ],
  ])(
    'fails on %s with one annotation, status failed, and nothing sent',
    async (_, inputs, files, message) => {
      const { em } = await fixture();
      const run = await runAction({ ...base(em.url), ...inputs }, { files });
      expect(run.code).toBe(1);
      expect(run.errors).toHaveLength(1);
      expect(run.errors[0]).toMatch(message);
      expect(run.outputs).toEqual({ status: 'failed' });
      expect(em.stats().requests).toBe(0);
      expectKeyKept(run, KEY);
    },
  );

  it('output_schema: an answer fixed on the second try is structured_output, and the step passes', async () => {
    const { em } = await fixture({ dialect: 'live' });
    const replies = ['Sure: approve.', '```json\n{"verdict":"approve"}\n```'].map(encodeURIComponent);
    const run = await runAction(
      {
        ...base(em.url),
        agent: 'claude',
        prompt: `Is it safe to merge? [[replies:${replies.join('|')}]]`,
        output_schema: 'verdict.json',
      },
      { files: { 'verdict.json': VERDICT } },
    );
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ status: 'completed', structured_output: '{"verdict":"approve"}' });
    expect(JSON.parse(run.outputs.result ?? '')).toMatchObject({ schema_attempts: 2 });
    expect(Object.keys(run.outputs).sort()).toEqual(
      declared('outputs')
        .filter((n) => n !== 'schema_errors')
        .sort(),
    );
    expect(quoted(run.stdout)).toContain('answer did not match the schema; asking again (1 of 2)');
    expect(run.summary).toContain('**Structured output**');
    // The create and one follow-up, each sent once.
    expect(em.messages(run.outputs.session_id ?? '').filter((m) => m.role === 'user')).toHaveLength(2);
    expectKeyKept(run, KEY);
  });

  it('output_schema never matched: status schema_mismatch, one annotation, the step fails', async () => {
    const { em } = await fixture({ dialect: 'live' });
    const run = await runAction(
      {
        ...base(em.url),
        agent: 'claude',
        prompt: 'Is it safe to merge? [[reply:Probably.]]',
        output_schema: 'verdict.json',
        schema_retries: '1',
      },
      { files: { 'verdict.json': VERDICT } },
    );
    expect(run.code).toBe(1);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatch(/schema/);
    expect(run.outputs.status).toBe('schema_mismatch');
    expect(run.outputs.structured_output).toBeUndefined();
    const errors = JSON.parse(run.outputs.schema_errors ?? '') as { message: string }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/JSON/);
    const result = JSON.parse(run.outputs.result ?? '') as { final_message: string };
    expect(result).toMatchObject({ status: 'schema_mismatch', schema_attempts: 2 });
    // The last reply checked (the follow-up's) is the final message.
    expect(run.outputs.final_message).toBe(result.final_message);
    expect(result.final_message).not.toBe('');
    expect(run.summary).toContain('the answer did not match the schema');
    expect(quoted(run.stdout).slice(-2)).toEqual([
      'the last answer did not match the schema:',
      '  (the value): no JSON found',
    ]);
    expect(em.messages(run.outputs.session_id ?? '').filter((m) => m.role === 'user')).toHaveLength(2);
    expectKeyKept(run, KEY);
  });

  it('a key the service refuses: one annotation with the hint, the key in no line or file', async () => {
    const { em } = await fixture({ dialect: 'live' });
    const key = 'sk-live-never-print-me-0123456789';
    const run = await runAction({ blocks_api_key: key, api_base_url: em.url, agent: 'claude', prompt: 'hi' });
    expect(run.code).toBe(1);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatch(/^::error::.*%0Ahint: /);
    expect(run.outputs).toEqual({ status: 'failed' });
    expectKeyKept(run, key);
  });

  it('with wait: false, creates the session with its title, sets the ids and the Session as result, and ends', async () => {
    const { em } = await fixture({ turnMsPerRequest: 0, dialect: 'live' });
    const run = await runAction({
      ...base(em.url),
      agent: 'gemini',
      prompt: '[[never]] go',
      title: 'Nightly',
      session_group_id: '0B5E6F0E-3C7A-4D7E-9D8E-2F1A3B4C5D6E',
      wait: 'false',
    });
    expect(run.code).toBe(0);
    const o = run.outputs;
    expect(Object.keys(o).sort()).toEqual(['result', 'session_html_url', 'session_id', 'thread_id']);
    expect(JSON.parse(o.result ?? '')).toMatchObject({
      id: o.session_id,
      thread_id: o.thread_id,
      title: 'Nightly',
      session_group_id: '0b5e6f0e-3c7a-4d7e-9d8e-2f1a3b4c5d6e',
    });
    expect(em.stats().sessionsCreated).toBe(1);
    expect(run.summary).toBe('');
  });

  it("with wait: false on session_id, the Message just posted is the result; budget_url is the library's budget", async () => {
    const f = await fixture({ turnMsPerRequest: 0 });
    const id = (await f.run(['create', '-a', 'claude', '[[never]] go'])).stdout.trim();
    // A Redis nobody listens on (port 9, refused at once): the library says so and paces with this
    // machine's budget (the suite's tuning paces nothing, so the budget is turned back on here).
    const run = await runAction(
      {
        ...base(f.em.url),
        session_id: id,
        prompt: 'and more',
        wait: 'false',
        budget_url: 'redis://:s3cret-pw@127.0.0.1:9',
      },
      { tuning: { pacing: undefined } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe('::add-mask::s3cret-pw');
    expect(quoted(run.stdout)).toEqual([expect.stringMatching(/^warning: .*127\.0\.0\.1:9.*cannot be used/)]);
    expect(run.stdout.split('\n').slice(2).join('\n')).not.toContain('s3cret-pw');
    expect(JSON.parse(run.outputs.result ?? '')).toMatchObject({
      role: 'user',
      message: 'and more',
      chat_thread_id: run.outputs.thread_id,
    });
    expect(run.outputs.session_id).toBe(id);
  });

  it('cancelled while waiting: exit 130, no status, the ids already written, and nothing sent to stop it', async () => {
    const { em } = await fixture({ turnMsPerRequest: 0 });
    const run = await runAction(
      { ...base(em.url), agent: 'claude', prompt: '[[never]] long job' },
      { onStart: (step) => void until(() => step.log.includes('Waiting for claude')).then(step.cancel) },
    );
    expect(run.code, run.stdout).toBe(130);
    expect(run.outputs.session_id).toMatch(UUID);
    expect(run.outputs.status).toBeUndefined();
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatch(/interrupted while waiting on session/);
    expect(em.messages(run.outputs.session_id ?? '').map((m) => m.role)).toEqual(['user']);
    expect(em.stats().followUps).toBe(0);
  });
});
