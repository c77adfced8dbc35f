// The GitHub Action (issue 32) as a runner runs it: `node dist-action/index.mjs` with INPUT_<NAME> variables
// and the runner's files, against the emulator. Turns are held (they end when the test or a request moves
// them), and the time-outs are a second or so of --timeout, never a wait for a turn on the wall clock.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, UUID } from '../support/fixture.js';
import { KEY } from '../support/key.js';
import { until } from '../support/until.js';
import { declared, expectKeyKept, runAction } from '../support/action.js';

const base = (url: string) => ({ blocks_api_key: KEY, api_base_url: url });
const VERDICT = JSON.stringify({
  type: 'object',
  properties: { verdict: { enum: ['approve', 'reject'] } },
  required: ['verdict'],
});

describe('the GitHub Action', () => {
  it('creates a session, waits, and sets every output and the step summary', async () => {
    const { em } = await fixture({ dialect: 'live' });
    const run = await runAction({
      ...base(em.url),
      agent: 'claude',
      title: 'PR review',
      prompt: 'Review the pull request [[reply:Looks%20good.]]',
    });
    expect(run.code).toBe(0);
    expect(run.errors).toEqual([]);
    const o = run.outputs;
    expect(o.session_id).toMatch(UUID);
    expect(o.thread_id).toMatch(UUID);
    expect(o.session_html_url).toContain(`/sessions/${o.session_id}`);
    expect(o).toMatchObject({ final_message: 'Looks good.', pull_requests: '[]', status: 'completed' });
    expect(JSON.parse(o.result ?? '')).toMatchObject({
      session_id: o.session_id,
      thread_id: o.thread_id,
      status: 'completed',
      final_message: 'Looks good.',
    });
    // The ids are written before the wait: they come first in the file.
    expect(run.outputText.indexOf('session_id<<')).toBeLessThan(run.outputText.indexOf('final_message<<'));
    expect(run.summary).toContain('[PR review]');
    expect(run.summary).toContain('status: **completed**');
    expect(em.messages(o.session_id ?? '')[0]?.message).toBe(
      'Review the pull request [[reply:Looks%20good.]]',
    );
    expectKeyKept(run, KEY);
    // Every output action.yml names is written but those of output_schema.
    expect(Object.keys(o).sort()).toEqual(
      declared('outputs')
        .filter((n) => n !== 'structured_output' && n !== 'schema_errors')
        .sort(),
    );
  });

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
    const threads = new Set(f.em.messages(id).map((m) => m.chat_thread_id));
    expect(threads.size).toBe(2);
    expect(threads).toContain(run.outputs.thread_id);
    expect(f.em.stats()).toMatchObject({ sessionsCreated: 1, followUps: 1 });
    expectKeyKept(run, KEY);
  });

  it.each([
    [true, 1],
    [false, 0],
  ])('times out with fail_on_timeout %s: exit %i, status timed_out, the ids set', async (fail, code) => {
    const { em } = await fixture({ turnMsPerRequest: 0 });
    const run = await runAction({
      ...base(em.url),
      agent: 'claude',
      prompt: '[[never]] a turn that does not end',
      timeout_minutes: '0.02',
      fail_on_timeout: String(fail),
    });
    expect(run.code).toBe(code);
    const [errors, warnings] = fail ? [run.errors, run.warnings] : [run.warnings, run.errors];
    expect(warnings).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::(error|warning)::timed out after .* waiting on session .*%0Ahint: /);
    expect(run.outputs).toMatchObject({ status: 'timed_out', final_message: '' });
    expect(run.outputs.session_id).toMatch(UUID);
    expect(run.summary).toContain('timed out');
    expectKeyKept(run, KEY);
  });

  const G = '0b5e6f0e-3c7a-4d7e-9d8e-2f1a3b4c5d6e';
  it.each([
    ['no agent', { prompt: 'hello' }, /input agent \(or agent_id\) is needed/],
    ['both agent and agent_id', { agent: 'claude', agent_id: G, prompt: 'hello' }, /exclude each other/],
    ['no prompt', { agent: 'claude' }, /input prompt \(or prompt_file\) is needed/],
    [
      'an output_schema not in the workspace',
      { agent: 'claude', prompt: 'hello', output_schema: 'schema.json' },
      /no file schema.json in the workspace/,
    ],
    [
      'a title over 200 characters',
      { agent: 'claude', prompt: 'hello', title: 'x'.repeat(201) },
      /at most 200/,
    ],
  ])('fails on %s with one annotation, status failed, and nothing sent', async (_, inputs, message) => {
    const { em } = await fixture();
    const run = await runAction({ ...base(em.url), ...inputs });
    expect(run.code).toBe(1);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatch(message);
    expect(run.outputs).toEqual({ status: 'failed' });
    expect(em.stats().requests).toBe(0);
    expectKeyKept(run, KEY);
  });

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
    expect(JSON.parse(run.outputs.result ?? '')).toMatchObject({
      status: 'schema_mismatch',
      schema_attempts: 2,
    });
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

  it('with wait: false, creates the session, sets the ids and the result, and ends', async () => {
    const { em } = await fixture({ turnMsPerRequest: 0 });
    const run = await runAction({ ...base(em.url), agent: 'gemini', prompt: '[[never]] go', wait: 'false' });
    expect(run.code).toBe(0);
    const o = run.outputs;
    expect(Object.keys(o).sort()).toEqual(['result', 'session_html_url', 'session_id', 'thread_id']);
    expect(JSON.parse(o.result ?? '')).toMatchObject({ id: o.session_id, thread_id: o.thread_id });
    expect(em.stats().sessionsCreated).toBe(1);
    expect(run.summary).toBe('');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'cancelled (%s) while waiting: the session goes on, its ids already in the outputs',
    async (signal) => {
      const { em } = await fixture({ turnMsPerRequest: 0 });
      let outputFile = '';
      const run = await runAction(
        { ...base(em.url), agent: 'claude', prompt: '[[never]] long job' },
        {
          outputPath: (p) => (outputFile = p),
          onSpawn: (child) =>
            void until(() => readFileSync(outputFile, 'utf8').includes('session_html_url<<')).then(() =>
              child.kill(signal),
            ),
        },
      );
      // The whole log with each check, so that a failure says what the step printed.
      const log = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      expect(run.code, log).toBe(130);
      expect(run.outputs.session_id).toMatch(UUID);
      expect(run.outputs.status).toBeUndefined();
      expect(run.errors, log).toHaveLength(1);
      expect(run.errors[0]).toMatch(/interrupted while waiting on session/);
      // Nothing was sent to stop it: the turn is still the user's message alone.
      const stored = em.messages(run.outputs.session_id ?? '');
      expect(stored.map((m) => m.role)).toEqual(['user']);
      expect(em.stats().followUps).toBe(0);
    },
  );
});
