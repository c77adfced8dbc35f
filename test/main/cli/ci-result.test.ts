// What a CI job gets from a wait: --wait --json ends with one result object (ids, web address, status, the
// final reply, the session's pull requests read after the turn ended), also when the wait times out; under
// GitHub Actions a step summary, and with --github-output the step outputs, in real files.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { githubOutputs, stepSummary } from '../../../src/core/events/ci-result.js';
import { DIALECTS, fixture, until, UUID } from '../../support/fixture.js';

/** The step outputs file as GitHub reads it: name<<DELIM … DELIM blocks, the last value of each name. */
function readOutputs(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([a-z_]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i += 1; lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}

function github() {
  const dir = mkdtempSync(join(tmpdir(), 'agents-gha-'));
  const summary = join(dir, 'summary.md');
  const output = join(dir, 'output.txt');
  writeFileSync(summary, '# earlier step\n');
  writeFileSync(output, '');
  return {
    summary,
    output,
    env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output },
  };
}

describe.each(DIALECTS)('a CI job waiting (%s dialect)', (dialect) => {
  it('--wait --json: the final Message with the result: ids, address, status, reply, pull requests', async () => {
    const f = await fixture({ dialect });
    const r = await f.run([
      'create',
      '-a',
      'claude',
      '--wait',
      '--json',
      '[[pr:https://github.com/acme/app/pull/7]] [[reply:all%20done]] fix it',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      type: 'final_message',
      message: 'all done',
      status: 'completed',
      final_message: 'all done',
    });
    expect(out.session_id).toMatch(UUID);
    expect(out.session_id).toBe(out.chat_id);
    expect(out.thread_id).toBe(out.chat_thread_id);
    expect(String(out.session_html_url)).toContain(`/sessions/${String(out.session_id)}`);
    const prs = out.pull_requests as unknown[];
    expect(prs).toHaveLength(1);
    expect(JSON.stringify(prs[0])).toContain('https://github.com/acme/app/pull/7');
  });

  it('under GitHub Actions: a step summary by default, the outputs with --github-output (ids before the wait)', async () => {
    const gh = github();
    const f = await fixture({ dialect }, gh.env);
    const r = await f.run(
      [
        'create',
        '-a',
        'claude',
        '--wait',
        '--github-output',
        '[[pr:https://github.com/acme/app/pull/9]] [[never]] go',
      ],
      {
        onStart: () =>
          void until(() => readFileSync(gh.output, 'utf8').includes('session_id<<'), 15_000).then(() => {
            // The ids are there before the turn ends: a later step can link to the running session.
            const early = readOutputs(gh.output);
            const id = early.session_id!;
            const thread = early.thread_id!;
            f.em.addMessage(id, {
              chat_thread_id: thread,
              role: 'assistant',
              type: 'final_message',
              message: 'Fixed it.\n\n| a | b |',
            });
          }),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Fixed it.\n\n| a | b |');
    const outputs = readOutputs(gh.output);
    expect(outputs.session_id).toMatch(UUID);
    expect(outputs.thread_id).toMatch(UUID);
    expect(outputs.session_html_url).toContain(outputs.session_id);
    expect(outputs.status).toBe('completed');
    expect(outputs.final_message).toBe('Fixed it.\n\n| a | b |');
    const summary = readFileSync(gh.summary, 'utf8');
    expect(summary.startsWith('# earlier step\n')).toBe(true);
    expect(summary).toContain('status: **completed**');
    expect(summary).toContain(outputs.session_id);
    expect(summary).toContain('<details><summary>Final reply</summary>');
    expect(summary).toContain('Fixed it.');
  });

  it('a wait that times out still gives the job its result, status timed_out, and exits 124', async () => {
    const gh = github();
    const f = await fixture({ dialect }, gh.env);
    const r = await f.run([
      'create',
      '-a',
      'claude',
      '--wait',
      '--json',
      '--github-output',
      '--timeout',
      '1s',
      '[[never]] go',
    ]);
    expect(r.code).toBe(124);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ status: 'timed_out', final_message: null });
    expect(out.session_id).toMatch(UUID);
    expect(readOutputs(gh.output).status).toBe('timed_out');
    expect(readFileSync(gh.summary, 'utf8')).toContain('status: **timed out**');
  });
});

describe('switches', () => {
  it('--no-step-summary and AGENTS_STEP_SUMMARY=0 write no summary; outside GitHub Actions none either', async () => {
    for (const [args, extra] of [
      [['--no-step-summary'], {}],
      [[], { AGENTS_STEP_SUMMARY: '0' }],
      [[], { GITHUB_ACTIONS: '' }],
    ] as const) {
      const gh = github();
      const f = await fixture({}, { ...gh.env, ...extra });
      const r = await f.run(['create', '-a', 'claude', '--wait', ...args, '[[reply:ok]] go']);
      expect(r.code).toBe(0);
      expect(readFileSync(gh.summary, 'utf8')).toBe('# earlier step\n');
    }
  });

  it('--github-output without GITHUB_OUTPUT, or without --wait, is a usage error before anything is sent', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', '--wait', '--github-output', 'go']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--github-output needs GITHUB_OUTPUT');
    const n = await f.run(['create', '-a', 'claude', '--github-output', 'go']);
    expect(n.code).toBe(2);
    expect(f.em.stats().requests).toBe(0);
  });

  it('outputs survive any text (a delimiter no value holds); the summary cannot be broken out of', () => {
    const text = githubOutputs({ final_message: 'EOF\nline two' }, 'agents_x');
    expect(text).toBe('final_message<<agents_x\nEOF\nline two\nagents_x\n');
    const summary = stepSummary(
      {
        session_id: 's',
        thread_id: 't',
        session_html_url: 'https://blocks.team/app/w/sessions/s',
        status: 'completed',
        final_message: 'has ``` fences ```` inside',
        pull_requests: [{ url: 'https://github.com/a/b/pull/1', status: 'open' }],
      },
      '<script>x</script>',
    );
    expect(summary).not.toContain('<script>');
    expect(summary).toContain('`````markdown');
    expect(summary).toContain('https://github.com/a/b/pull/1 (open)');
  });
});
