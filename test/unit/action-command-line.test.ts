// The Action's inputs as the `agents` command line it runs in-process: options before `--` (a prompt or a
// session reference can never be read as one), the key as a setting and never an INPUT_ variable, and
// poll_interval_seconds as a floor on every gap of the poll schedule.
import { describe, expect, it } from 'vitest';
import { commandLine } from '../../src/action/command-line.js';
import { parseInputs, type InputName } from '../../src/action/inputs.js';
import { DEFAULT_SCHEDULE, nextDelay } from '../../src/poll/schedule.js';

const SID = '0b5e6f0e-3c7a-4d7e-9d8e-2f1a3b4c5d6e';
const inputs = (given: Partial<Record<InputName, string>>) =>
  parseInputs((n) => ({ blocks_api_key: 'k-123', prompt: '--help', ...given })[n] ?? '', '/ws');
const ENV = { GITHUB_OUTPUT: '/out', INPUT_BLOCKS_API_KEY: 'k-123', PATH: '/bin' };

describe("the Action's command line", () => {
  it('create: the agent and the session fields, the wait, and the prompt from stdin after --', () => {
    const run = commandLine(
      inputs({ agent: 'claude', title: 'T', is_private: 'true', timeout_minutes: '0.5' }),
      ENV,
    );
    expect(run.argv).toEqual([
      '--json',
      'create',
      '--agent',
      'claude',
      '--title',
      'T',
      '--private',
      '--wait',
      '--timeout',
      '30',
      '--github-output',
      '--',
      '-',
    ]);
    expect(run.stdin).toBe('--help');
    expect(run.env).toEqual({
      GITHUB_OUTPUT: '/out',
      PATH: '/bin',
      AGENTS_API_KEY: 'k-123',
      AGENTS_BASE_URL: 'https://api.blocks.team',
    });
    expect(run.tuning).toBeUndefined();
  });

  it('send: the session after --, no wait flags with wait false, the budget as AGENTS_BUDGET_URL', () => {
    const run = commandLine(
      inputs({ session_id: SID, wait: 'false', budget_url: 'redis://localhost:6379' }),
      ENV,
    );
    expect(run.argv).toEqual(['--json', 'send', '--', SID, '-']);
    expect(run.env.AGENTS_BUDGET_URL).toBe('redis://localhost:6379');
  });

  it('poll_interval_seconds: no gap of the schedule below it, jitter included', () => {
    const run = commandLine(inputs({ agent: 'codex', poll_interval_seconds: '5' }), ENV);
    const schedule = { ...DEFAULT_SCHEDULE, ...run.tuning?.schedule };
    for (const quiet of [0, 1000, 30_000, 120_000]) {
      expect(nextDelay(quiet, 0, schedule, () => 0)).toBeGreaterThanOrEqual(5000);
    }
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, () => 0)).toBeLessThan(5000);
  });
});
