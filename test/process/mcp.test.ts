// `agents mcp` as a local agent uses it: the SDK's own Client over stdio, spawning the built binary against
// the emulator. The tools and their schemas, a turn across two calls, a follow-up, show and list, every
// error as a result with isError, a cancelled wait, and the read-only server.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, endTurn } from '../support/emulator.js';
import { KEY } from '../support/key.js';
import { cliEnv } from '../support/run-cli.js';
import { mcpClient, textOf, type McpRun } from '../support/mcp-client.js';
import { UUID } from '../support/fixture.js';
import { runMain } from '../support/main.js';

const runs: McpRun[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((r) => r.close()));
});

async function start(em: RunningEmulator, args: string[] = [], extra: NodeJS.ProcessEnv = {}) {
  const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...extra });
  const run = await mcpClient(env, args);
  runs.push(run);
  return run;
}

const ALL = ['create_session', 'send_message', 'wait_for_reply', 'show_session', 'list_sessions'];

describe('agents mcp', () => {
  it('lists the five tools, each with an input schema an agent can act on and an output schema', async () => {
    const em = await emulator();
    const mcp = await start(em);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(ALL);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.create_session!.inputSchema.required).toEqual(['message']);
    expect(Object.keys(byName.create_session!.inputSchema.properties ?? {})).toEqual([
      'message',
      'agent',
      'agent_id',
      'is_private',
      'wait_seconds',
      'output_schema',
      'schema_retries',
    ]);
    expect(byName.send_message!.inputSchema.required).toEqual(['session', 'message']);
    // output_schema on the tools that wait; only those that post ask again (schema_retries).
    expect(Object.keys(byName.send_message!.inputSchema.properties ?? {})).toContain('schema_retries');
    expect(Object.keys(byName.wait_for_reply!.inputSchema.properties ?? {})).toEqual([
      'session',
      'thread',
      'wait_seconds',
      'output_schema',
    ]);
    expect(byName.send_message!.description).toMatch(/INTERRUPTS the turn in progress/);
    expect(byName.wait_for_reply!.inputSchema.properties?.wait_seconds).toMatchObject({
      default: 60,
      maximum: 600,
    });
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.description?.length, t.name).toBeGreaterThan(40);
      for (const [name, p] of Object.entries(t.inputSchema.properties ?? {})) {
        expect((p as { description?: string }).description, `${t.name}.${name}`).toBeTruthy();
      }
    }
    expect(mcp.client.getServerVersion()?.name).toBe('agents');
  });

  it('creates a session and waits for it across two calls: running, then the reply and pull request', async () => {
    const em = await emulator();
    const mcp = await start(em);
    await mcp.client.listTools(); // the client checks each structuredContent against its outputSchema
    const created = await mcp.call('create_session', {
      agent: 'codex',
      message: '[[pr:https://github.com/o/r/pull/7]] [[reply:Fixed%20the%20flaky%20test.]] fix it',
    });
    expect(created.isError).toBeFalsy();
    const c = created.structuredContent as Record<string, string>;
    expect(c.session_id).toMatch(UUID);
    expect(c.thread_id).toMatch(UUID);
    expect(c.session_html_url).toBe(`${em.url}/app/sessions/${c.session_id}`);
    expect(c.status).toBe('running');
    expect(c.final_message).toBeNull();
    expect(textOf(created)).toMatch(/still working/);

    endTurn(em, c.session_id!);
    const waited = await mcp.call('wait_for_reply', { session: c.session_id });
    expect(waited.isError).toBeFalsy();
    expect(waited.structuredContent).toEqual({
      session_id: c.session_id,
      thread_id: c.thread_id,
      session_html_url: c.session_html_url,
      status: 'completed',
      final_message: 'Fixed the flaky test.',
      pull_requests: ['https://github.com/o/r/pull/7'],
    });
    expect(textOf(waited)).toBe('Fixed the flaky test.');
  });

  it('wait_for_reply answers "running" when its time runs out, as an answer and not an error', async () => {
    const em = await emulator();
    const mcp = await start(em);
    const created = await mcp.call('create_session', { agent: 'claude', message: '[[never]] go on' });
    const id = (created.structuredContent as { session_id: string }).session_id;
    const waited = await mcp.call('wait_for_reply', { session: id, wait_seconds: 1 });
    expect(waited.isError).toBeFalsy();
    expect(waited.structuredContent).toMatchObject({
      session_id: id,
      // Not given: the thread is the one the library's wait found, the latest turn's (the create's).
      thread_id: (created.structuredContent as { thread_id: string }).thread_id,
      status: 'running',
      final_message: null,
    });
  });

  it('sends a follow-up on a new thread and waits for its reply in the same call', async () => {
    const em = await emulator();
    const mcp = await start(em);
    const created = await mcp.call('create_session', { agent: 'claude', message: 'hello', wait_seconds: 60 });
    const first = created.structuredContent as Record<string, string>;
    expect(first.status).toBe('completed');
    const sent = await mcp.call('send_message', {
      session: 'last',
      message: '[[reply:Done%20again.]] once more',
      wait_seconds: 60,
    });
    expect(sent.isError).toBeFalsy();
    const s = sent.structuredContent as Record<string, string>;
    expect(s).toMatchObject({
      session_id: first.session_id,
      status: 'completed',
      final_message: 'Done again.',
    });
    expect(s.thread_id).toMatch(UUID);
    expect(s.thread_id).not.toBe(first.thread_id);
    expect(em.stats().followUps).toBe(1);
  });

  it('shows a session as show reads it, and lists the sessions this machine started', async () => {
    const em = await emulator();
    const mcp = await start(em);
    const created = await mcp.call('create_session', {
      agent: 'claude',
      message: '[[reply:Here.]] where?',
      wait_seconds: 60,
    });
    const id = (created.structuredContent as { session_id: string }).session_id;
    const shown = await mcp.call('show_session', { session: id });
    expect(shown.isError).toBeFalsy();
    const view = shown.structuredContent as {
      session: { id: string };
      messages: { role: string; message: string }[];
      running_thread_id: string | null;
    };
    expect(view.session.id).toBe(id);
    // The conversation exactly as `agents show --json` reads it.
    const show = await runMain(['show', id, '--json'], { env: mcp.env });
    expect(show.code, show.stderr).toBe(0);
    const cli = JSON.parse(show.stdout) as { messages: unknown[]; notices: unknown[] };
    expect(view.messages).toEqual(cli.messages);
    expect(view.messages.at(-1)).toMatchObject({ role: 'assistant', message: 'Here.' });
    expect(view.running_thread_id).toBeNull();
    expect(textOf(shown)).toContain('assistant: Here.');

    const listed = await mcp.call('list_sessions', {});
    const sessions = (listed.structuredContent as { sessions: { id: string; state: string }[] }).sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ id, state: 'finished', agent: 'claude' });
  });

  it('--read-only serves wait, show and list alone: the others are neither listed nor callable', async () => {
    const em = await emulator();
    const mcp = await start(em, ['--read-only']);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['wait_for_reply', 'show_session', 'list_sessions']);
    for (const name of ['create_session', 'send_message']) {
      const r = await mcp.call(name, { agent: 'claude', session: 'last', message: 'hi' });
      expect(r.isError, name).toBe(true);
      expect(textOf(r)).toMatch(/read-only/);
    }
    expect(em.stats().requests).toBe(0);
  });
});
