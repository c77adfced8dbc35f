// `agents mcp` when things go wrong or stop: every error kind is a tool result with isError (one line, its
// hint, never the key) and the server goes on; a cancelled wait stops and leaves the session running;
// stdin closing ends the server cleanly with stdout holding protocol frames alone (two servers sharing a
// key's budget: test/main/mcp/budget.test.ts, in-process, where the budget's window can be short).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { emulator } from '../support/emulator.js';
import { KEY } from '../support/key.js';
import { BIN, cliEnv, ROOT } from '../support/run-cli.js';
import { mcpClient, textOf, type McpRun } from '../support/mcp-client.js';
import { POLL } from '../support/test-server.js';

const runs: McpRun[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((r) => r.close()));
});

async function start(env: NodeJS.ProcessEnv, args: string[] = []) {
  const run = await mcpClient(env, args);
  runs.push(run);
  return run;
}

const SECRET = 'sk-mcp-secret-3f9a1c7e5b';

const sessionOf = (r: { structuredContent?: unknown }) =>
  (r.structuredContent as { session_id: string; thread_id: string }).session_id;

describe('agents mcp errors', () => {
  it('every error kind is a result with isError, one line with its hint, never the key; the server goes on', async () => {
    const em = await emulator({ keys: [{ key: SECRET, workspace: 'dev' }] });
    const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: SECRET });
    const mcp = await start(env);
    const created = await mcp.call('create_session', { agent: 'claude', message: '[[never]] work' });
    const id = sessionOf(created);
    const errors: [string, Record<string, unknown>, RegExp][] = [
      [
        'create_session',
        { agent: 'claude', message: 'hi', wait_seconds: 601 },
        /wait_seconds must be a number from 0 to 600/,
      ],
      ['create_session', { agent: 'claude' }, /message is required/],
      ['create_session', { agent: 'nobody', message: 'hi' }, /agent must be one of claude, codex/],
      ['create_session', { message: 'hi' }, /no agent given; hint: give agent/],
      ['show_session', { session: 'nope' }, /not a session: "nope"; hint: give a session id/],
      ['wait_for_reply', { session: id, colour: 'red' }, /takes no argument "colour"/],
      ['wait_for_reply', { session: id, thread: 'x' }, /thread must be a UUID/],
      ['show_session', { session: randomUUID() }, /not found.*; hint: check the session id/i],
      ['send_message', { session: randomUUID(), message: 'hi' }, /not found.*; hint: /i],
      ['no_such_tool', {}, /no tool "no_such_tool"; the tools: create_session/],
    ];
    for (const [name, args, pattern] of errors) {
      const r = await mcp.call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toMatch(pattern);
      expect(textOf(r)).toMatch(/^error: [^\n]+$/);
      expect(JSON.stringify(r)).not.toContain(SECRET);
    }

    // A key the service refuses, and the key's requests spent past the wait's deadline (429s).
    em.setFaults({ rate: 1, modes: ['429'] });
    const busy = await mcp.call('wait_for_reply', { session: id, wait_seconds: 1 });
    expect(busy.isError).toBe(true);
    expect(textOf(busy)).toMatch(/^error: no answer from the service in 1 s .*; hint: .*429/);
    em.setFaults(undefined);
    const wrong = await start({ ...env, AGENTS_API_KEY: `${SECRET}-wrong` });
    const refused = await wrong.call('show_session', { session: id });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/; hint: check the API key/);
    expect(textOf(refused)).not.toContain(SECRET);

    // Still serving, and the logs hold no key either.
    expect((await mcp.client.listTools()).tools).toHaveLength(5);
    expect(mcp.stderr()).not.toContain(SECRET);
    expect(wrong.stderr()).not.toContain(SECRET);
  });

  it('a missing key is a result with isError, not the end of the server', async () => {
    const em = await emulator();
    const mcp = await start(cliEnv({ AGENTS_BASE_URL: em.url }));
    const r = await mcp.call('show_session', { session: randomUUID() });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^error: .*API key.*; hint: /);
    expect((await mcp.call('list_sessions')).isError).toBeFalsy();
    expect(em.stats().requests).toBe(0);
  });

  it('a cancelled wait stops at once, after progress notifications; the session goes on', async () => {
    const em = await emulator();
    const mcp = await start(cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY }));
    const created = await mcp.call('create_session', { agent: 'claude', message: '[[never]] long job' });
    const id = sessionOf(created);
    const thread = (created.structuredContent as { thread_id: string }).thread_id;
    const cancel = new AbortController();
    const progress: { progress: number; total?: number }[] = [];
    const waiting = mcp.client.callTool(
      { name: 'wait_for_reply', arguments: { session: id, wait_seconds: 600 } },
      undefined,
      {
        signal: cancel.signal,
        onprogress: (p) => {
          progress.push(p);
          if (progress.length === 2) cancel.abort('the user moved on');
        },
      },
    );
    await expect(waiting).rejects.toThrow();
    expect(progress[0]!.total).toBe(600);
    expect(progress[1]!.progress).toBeGreaterThan(progress[0]!.progress);
    await expect
      .poll(() => mcp.stderr(), POLL)
      .toContain('wait_for_reply stopped: the call was cancelled; the session goes on');
    // Nothing was sent to the session: its turn still runs.
    expect(em.stats().followUps).toBe(0);
    const shown = await mcp.call('show_session', { session: id });
    expect((shown.structuredContent as { running_thread_id: string }).running_thread_id).toBe(thread);
  });

  it('ends cleanly when stdin closes, a wait in flight, with stdout holding protocol frames alone', async () => {
    const em = await emulator();
    const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY });
    const child = spawn(process.execPath, [BIN, 'mcp'], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    const frames = () =>
      stdout
        .split('\n')
        .filter((l) => l !== '')
        .map(
          (l) => JSON.parse(l) as { id?: number; result?: { structuredContent?: { session_id: string } } },
        );
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'show_session', arguments: {} } });
    const create = {
      name: 'create_session',
      arguments: { agent: 'claude', message: '[[never]] keep going' },
    };
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: create });
    await expect.poll(() => frames().some((f) => f.id === 4), POLL).toBe(true);
    const id = frames().find((f) => f.id === 4)!.result!.structuredContent!.session_id;
    send({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'wait_for_reply', arguments: { session: id } },
    });
    // The wait is under way (it has polled, after reading the session and its latest turn) when stdin closes.
    const before = em.stats().requests;
    await expect.poll(() => em.stats().requests, POLL).toBeGreaterThanOrEqual(before + 3);
    child.stdin.end();
    expect(await exited).toBe(0);
    // Every line of stdout is a JSON-RPC frame; the wait in flight got no answer, and the turn goes on.
    const all = frames();
    expect(all.every((f) => (f as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
    expect(all.map((f) => f.id)).toEqual([1, 2, 3, 4]);
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stderr).toBe('agents mcp: wait_for_reply stopped: the server ended; the session goes on\n');
    expect(em.stats().followUps).toBe(0);
    expect(em.messages(id).filter((m) => m.role === 'user')).toHaveLength(1);
  });
});
