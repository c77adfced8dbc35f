// The GitHub Action (issue 32) as a runner runs it: `node dist-action/index.mjs` with INPUT_<NAME> variables
// and the runner's files, against the emulator: a whole step, and a job cancelled by each of the runner's
// signals. Every other case runs in-process, through the same runAction (test/main/action/action.test.ts).
// Turns are held: they end when the test or a request moves them on.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, UUID } from '../support/fixture.js';
import { KEY } from '../support/key.js';
import { until } from '../support/until.js';
import { declared, expectKeyKept, runAction } from '../support/action.js';

const base = (url: string) => ({ blocks_api_key: KEY, api_base_url: url });

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

  it('a runner file it cannot write: one annotation for it, exit 1, and no stack trace', async () => {
    const { em } = await fixture();
    const missing = join(mkdtempSync(join(tmpdir(), 'agents-action-')), 'gone', 'output');
    const run = await runAction({ ...base(em.url), prompt: 'hello' }, { env: { GITHUB_OUTPUT: missing } });
    expect(run.code).toBe(1);
    expect(run.errors).toEqual([
      expect.stringMatching(/^::error::input agent \(or agent_id\) is needed/),
      `::error::Missing file at path: ${missing}`,
    ]);
    expect(run.stderr).toBe('');
    expect(em.stats().requests).toBe(0);
    expectKeyKept(run, KEY);
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
