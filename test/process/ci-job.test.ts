// The third user: a CI job. CI=true, no terminal, stdin left open and idle (as runners leave it), the
// contract's own example: `agents send "$SESSION" --wait --timeout 20m "Fix the failing test"`. The built
// binary in its own process, as a runner starts it: this is the CI user end to end.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, UUID } from '../support/fixture.js';
import { runInPty } from '../support/pty.js';
import { runCli } from '../support/run-cli.js';
import { missing, titled } from '../support/tools.js';

const noTools = missing('script');

describe('a CI job', () => {
  it('creates, sends with --wait --timeout --output, and gets the reply, with stdin open and idle', async () => {
    const f = await fixture({}, { CI: 'true' });
    // No input and no closeStdin: the runner's stdin stays open; agents must not wait on it.
    const created = await runCli(['create', '-a', 'codex', 'Set up the build'], { env: f.env });
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    const id = created.stdout.trim();
    expect(id).toMatch(UUID);

    const artifact = join(mkdtempSync(join(tmpdir(), 'agents-ci-')), 'reply.md');
    const sent = await runCli(
      [
        'send',
        id,
        '--wait',
        '--timeout',
        '20m',
        '--output',
        artifact,
        '[[reply:All%20green.]] Fix the failing test',
      ],
      { env: f.env },
    );
    expect(sent.code).toBe(0);
    expect(sent.stdout).toBe('All green.');
    // The job log shows where the wait is at once (and, on a long one, a heartbeat a minute).
    // The session's address is the one its create recorded.
    expect(sent.stderr).toBe(`Waiting for the reply on session ${id} (${f.em.url}/app/sessions/${id})\n`);
    expect(readFileSync(artifact, 'utf8')).toBe('All green.');
    expect(f.em.stats().followUps).toBe(1);
  });

  it('--output-schema in the built binary (ajv loaded from its own chunk): one line of JSON, fixed on a retry, and exit 5', async () => {
    const f = await fixture({}, { CI: 'true' });
    const schema = join(mkdtempSync(join(tmpdir(), 'agents-ci-')), 'verdict.json');
    writeFileSync(
      schema,
      JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { verdict: { enum: ['approve', 'reject'] }, at: { type: 'string', format: 'date-time' } },
        required: ['verdict'],
      }),
    );
    const ok = await runCli(
      [
        'create',
        '-a',
        'claude',
        '--output-schema',
        schema,
        'Safe? [[replies:prose|%7B"verdict":"approve"%7D]]',
      ],
      { env: f.env },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('{"verdict":"approve"}\n');
    expect(ok.stderr).toContain('answer did not match the schema (no JSON found); asking again (1 of 2)');
    const bad = await runCli(
      [
        'create',
        '-a',
        'claude',
        '--output-schema',
        schema,
        '--schema-retries',
        '0',
        '[[reply:%7B"at":"now"%7D]]',
      ],
      { env: f.env },
    );
    expect(bad.code).toBe(5);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('/at: must match format "date-time"');
  });

  it.skipIf(noTools)(
    titled(
      'is never asked anything, even on a terminal: no agent prompt, no interrupt question, no spinner',
      noTools,
    ),
    async () => {
      const f = await fixture({}, { CI: 'true' });
      const noAgent = runInPty(['create', '--wait', 'hello'], { ...f.env, NO_COLOR: '1' });
      expect(await noAgent.exit).toBe(2);
      expect(noAgent.screen).not.toContain('Agent:');
      expect(noAgent.screen).toMatch(/error: no agent/i);

      const c = await f.run(['create', '-a', 'claude', '[[never]] long job']);
      const id = c.stdout.trim();
      const send = runInPty(['send', id, '--wait', '[[think:600]] stop that'], { ...f.env, NO_COLOR: '1' });
      expect(await send.exit).toBe(0);
      expect(send.screen).not.toContain('Interrupt it?');
      // No spinner (ora's frames), but the job log's line saying where the wait is.
      expect(send.screen).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
      expect(send.screen).toContain(`Waiting for the reply on session ${id}`);
      expect(send.screen).toContain('claude finished: "stop that"');
      expect(f.em.stats().followUps).toBe(1);
    },
  );
});
