// Two `agents mcp` servers on one key share its budget, as every agents process on a machine does. In-process
// (main with the run's tuning), so that the budget's window is 600 ms, not the minute the binary keeps.
import { afterEach, describe, expect, it } from 'vitest';
import { emulator } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { FAST_TUNING, runMain } from '../../support/main.js';
import { mcpInProcess, type McpRun } from '../../support/mcp-client.js';
import { cliEnv } from '../../support/run-cli.js';

const runs: McpRun[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((r) => r.close()));
});

const WINDOW = { limit: 3, windowMs: 600 };

describe('agents mcp and the key budget', () => {
  it('two servers on one key share its budget: together they draw no 429', async () => {
    // The service allows 3 requests in 600 ms, and this machine is told the same. Two calls need 4: the
    // last waits for the window to move on instead of being refused. (With a budget each, both calls send
    // at once and the service refuses one.) The session is made with another key, outside this one's budget.
    const em = await emulator({
      rateLimit: WINDOW,
      keys: [
        { key: KEY, workspace: 'dev' },
        { key: 'maker-key', workspace: 'dev' },
      ],
    });
    const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY });
    const made = await runMain(['create', '-a', 'claude', '[[never]] shared'], {
      env: { ...env, AGENTS_API_KEY: 'maker-key' },
    });
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const thread = em.messages(id)[0]!.chat_thread_id;
    em.resetStats();
    const tuning = { ...FAST_TUNING, pacing: WINDOW };
    const [a, b] = await Promise.all([mcpInProcess(env, tuning), mcpInProcess(env, tuning)]);
    runs.push(a, b);
    const args = { session: id, thread, wait_seconds: 0 };
    const [ra, rb] = await Promise.all([a.call('wait_for_reply', args), b.call('wait_for_reply', args)]);
    expect([ra.isError, rb.isError], a.stderr() + b.stderr()).toEqual([undefined, undefined]);
    expect((rb.structuredContent as { status: string }).status).toBe('running');
    expect(em.stats().requests).toBe(4);
    expect(em.stats().rejected429).toBe(0);
  });
});
