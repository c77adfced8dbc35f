// `agents acp` as an editor starts it: the built binary, the SDK's own client app on its stdio. stdout
// carries the protocol alone (every line a JSON-RPC message), and the run ends, 0, when stdin closes: at
// once, even with a create being retried behind a 429, which is then never sent again.
import { describe, expect, it } from 'vitest';
import { emulator } from '../support/emulator.js';
import { KEY } from '../support/key.js';
import { cliEnv } from '../support/run-cli.js';
import { acpProcess, chunkText, initialize, updatesOf } from '../support/acp-client.js';
import { until } from '../support/until.js';

describe('agents acp (the binary)', () => {
  it('answers over stdio with protocol alone on stdout, and ends 0 when stdin closes', async () => {
    const em = await emulator();
    const acp = acpProcess(cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY }));
    try {
      expect((await initialize(acp)).agentCapabilities?.loadSession).toBe(true);
      const made = await acp.connection.agent.request('session/new', { cwd: '/w', mcpServers: [] });
      const r = await acp.prompt(made.sessionId, 'Hello [[reply:hi%20there]]');
      expect(r.stopReason).toBe('end_turn');
      // The reply is a paragraph of its own, after the agent's first message.
      expect(chunkText(updatesOf(acp.events, made.sessionId).at(-1)!)).toBe('\n\nhi there');
    } finally {
      expect(await acp.close()).toBe(0);
    }
    const lines = acp.raw().split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(acp.stderr()).not.toContain(KEY);
  });

  it('the editor leaves while the service answers 429 to the create: the process exits, no POST after, no session', async () => {
    const em = await emulator();
    em.setFaults({ rate: 1, modes: ['429'], methods: ['POST'] });
    const acp = acpProcess(cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY }));
    await initialize(acp);
    const made = await acp.connection.agent.request('session/new', { cwd: '/w', mcpServers: [] });
    const prompt = acp.prompt(made.sessionId, 'Hello [[reply:hi]]').catch((err: unknown) => err);
    // The create was refused once: the client backs off before sending it again.
    const posts = () => em.stats().byRoute['POST /sessions'] ?? 0;
    await until(() => posts() >= 1);
    const atClose = posts();
    let exited = false;
    const closed = acp.close().then((code) => {
      exited = true;
      return code;
    });
    // Either the process ends, or it sends the create again (the bug): whichever comes first.
    await until(() => exited || posts() > atClose);
    expect(posts()).toBe(atClose);
    expect(await closed).toBe(0);
    // Nobody is there to take a session any more: the service may take POSTs again, none comes.
    em.setFaults(undefined);
    expect([posts(), em.stats().sessionsCreated]).toEqual([atClose, 0]);
    await prompt;
    expect(acp.stderr()).not.toContain(KEY);
  });
});
