// `agents acp` as an editor starts it: the built binary, the SDK's own client app on its stdio. stdout
// carries the protocol alone (every line a JSON-RPC message), and the run ends, 0, when stdin closes.
import { describe, expect, it } from 'vitest';
import { emulator } from '../support/emulator.js';
import { KEY } from '../support/key.js';
import { cliEnv } from '../support/run-cli.js';
import { acpProcess, chunkText, initialize, updatesOf } from '../support/acp-client.js';

describe('agents acp (the binary)', () => {
  it('answers over stdio with protocol alone on stdout, and ends 0 when stdin closes', async () => {
    const em = await emulator();
    const acp = acpProcess(cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY }));
    try {
      expect((await initialize(acp)).agentCapabilities?.loadSession).toBe(true);
      const made = await acp.connection.agent.request('session/new', { cwd: '/w', mcpServers: [] });
      const r = await acp.prompt(made.sessionId, 'Hello [[reply:hi%20there]]');
      expect(r.stopReason).toBe('end_turn');
      expect(chunkText(updatesOf(acp.events, made.sessionId).at(-1)!)).toBe('hi there');
    } finally {
      expect(await acp.close()).toBe(0);
    }
    const lines = acp.raw().split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(acp.stderr()).not.toContain(KEY);
  });
});
