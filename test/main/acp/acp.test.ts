// `agents acp` as an editor's panel drives it: the SDK's own client app over the run's stdin and stdout
// (in-process, through main), against the emulator. Updates are checked in the order the client saw them.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { cliEnv } from '../../support/run-cli.js';
import { acpInProcess, chunkText, initialize, updatesOf, type AcpRun } from '../../support/acp-client.js';

const runs: AcpRun[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((r) => r.close()));
});

function start(em: RunningEmulator | undefined, args: string[] = [], extra: NodeJS.ProcessEnv = {}): AcpRun {
  const env = cliEnv(em ? { AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...extra } : extra);
  const run = acpInProcess(env, args);
  runs.push(run);
  return run;
}

describe('agents acp', () => {
  it('initialize: the protocol version, loading sessions, text and embedded resources, no images', async () => {
    const em = await emulator();
    const acp = start(em);
    const init = await initialize(acp);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      sessionCapabilities: { list: {} },
    });
    expect(init.authMethods).toEqual([]);
    expect(init.agentInfo?.name).toBe('agents');
  });

  it('a prompt: the address once, each message once in the server order, tool calls, a plan, the pull requests, end_turn', async () => {
    const em = await emulator({ dialect: 'live' });
    const acp = start(em);
    await initialize(acp);
    const made = await acp.connection.agent.request('session/new', { cwd: '/work', mcpServers: [] });
    expect(made.configOptions?.[0]).toMatchObject({ id: 'agent', currentValue: 'claude' });
    const plan = encodeURIComponent('# Plan\n\n- [x] read the code\n- write the fix\n');
    const r = await acp.prompt(
      made.sessionId,
      `Fix it [[steps:4]] [[reply:done]] [[plan:${plan}]] [[pr:https://github.com/o/r/pull/7]]`,
    );
    expect(r.stopReason).toBe('end_turn');
    const id = em.messages.length; // placeholder
    void id;
    const updates = updatesOf(acp.events, made.sessionId);
    console.log(JSON.stringify(updates, null, 1));
  });
});
