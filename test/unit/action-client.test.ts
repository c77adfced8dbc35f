// The Action's client: the library's options made from the inputs and the runner's environment (the key an
// option, never a variable; the budget as the CLI keeps it), poll_interval_seconds as a floor on every gap
// of the poll schedule, and the library's events as the log lines of `agents … --wait`.
import { describe, expect, it } from 'vitest';
import { agentsOptions, eventLine } from '../../src/action/client.js';
import { parseInputs, type InputName } from '../../src/action/inputs.js';
import { DEFAULT_SCHEDULE, nextDelay } from '../../src/core/poll/schedule.js';
import { UsageError } from '../../src/sdk/index.js';

const SID = '0b5e6f0e-3c7a-4d7e-9d8e-2f1a3b4c5d6e';
const inputs = (given: Partial<Record<InputName, string>>) =>
  parseInputs((n) => ({ blocks_api_key: 'k-123', prompt: 'hi', ...given })[n] ?? '', '/ws');
const ENV = { GITHUB_OUTPUT: '/out', INPUT_BLOCKS_API_KEY: 'k-123', PATH: '/bin' };
const log = () => undefined;

describe("the Action's client", () => {
  it('the key and base URL as options, the inputs out of the environment, the budget shared', () => {
    const o = agentsOptions(inputs({ agent: 'claude' }), ENV, log);
    expect(o).toMatchObject({ apiKey: 'k-123', baseUrl: 'https://api.blocks.team' });
    expect(o.env).toEqual({ GITHUB_OUTPUT: '/out', PATH: '/bin' });
    expect(o.budget).toEqual({ shared: true });
    expect(o.tuning).toEqual({});
  });

  it("budget_url is the budget's Redis; AGENTS_RATE_LIMIT and AGENTS_SHARED_PACING are read as the CLI reads them", () => {
    const o = agentsOptions(
      inputs({ session_id: SID, budget_url: 'redis://localhost:6379' }),
      { ...ENV, AGENTS_RATE_LIMIT: '3', AGENTS_SHARED_PACING: '0' },
      log,
    );
    expect(o.budget).toEqual({ shared: false, limit: 3, url: 'redis://localhost:6379' });
    expect(() => agentsOptions(inputs({ agent: 'codex' }), { AGENTS_RATE_LIMIT: 'lots' }, log)).toThrow(
      UsageError,
    );
  });

  it('poll_interval_seconds: no gap of the schedule below it, jitter included', () => {
    const o = agentsOptions(inputs({ agent: 'codex', poll_interval_seconds: '5' }), ENV, log);
    const schedule = { ...DEFAULT_SCHEDULE, ...o.tuning?.schedule };
    for (const quiet of [0, 1000, 30_000, 120_000]) {
      expect(nextDelay(quiet, 0, schedule, () => 0)).toBeGreaterThanOrEqual(5000);
    }
    expect(nextDelay(0, 0, DEFAULT_SCHEDULE, () => 0)).toBeLessThan(5000);
  });

  it("the library's events as the lines the CLI writes off a terminal; retries and pacing unsaid", () => {
    expect(eventLine({ type: 'warning', message: 'w' })).toBe('warning: w');
    expect(eventLine({ type: 'budget', message: 'redis lost' })).toBe('warning: redis lost');
    expect(
      eventLine({ type: 'poll-failed', reason: '502 Bad Gateway', rateLimited: false, sessionId: SID }),
    ).toBe('warning: the service is failing: 502 Bad Gateway; still waiting');
    expect(eventLine({ type: 'poll-failed', reason: '429', rateLimited: true, sessionId: SID })).toMatch(
      /^warning: the key's requests are spent for now/,
    );
    expect(eventLine({ type: 'schema-retry', sessionId: SID, attempt: 1, of: 2 })).toBe(
      'answer did not match the schema; asking again (1 of 2)',
    );
    expect(eventLine({ type: 'paced', limit: 100, windowMs: 60_000 })).toBeUndefined();
  });
});
