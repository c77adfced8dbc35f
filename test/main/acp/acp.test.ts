// `agents acp` as an editor's panel drives it: the SDK's own client app over the run's stdin and stdout
// (in-process, through main), against the emulator. Updates are checked in the order the client saw them.
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import type { Message } from '../../../src/core/api/types.js';
import { emulator } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { until } from '../../support/until.js';
import { cliEnv } from '../../support/run-cli.js';
import {
  acpInProcess,
  chunkText,
  initialize,
  updatesOf,
  type AcpEvent,
  type AcpRun,
} from '../../support/acp-client.js';

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

async function newSession(acp: AcpRun, cwd = '/work/project') {
  await initialize(acp);
  return acp.connection.agent.request('session/new', { cwd, mcpServers: [] });
}

/** The Blocks session the panel's address names (the first update of a new session). */
function blocksIdOf(updates: SessionUpdate[]): string {
  const m = /sessions\/([0-9a-f-]{36})/.exec(chunkText(updates[0]!));
  if (m === null) throw new Error(`no address in ${JSON.stringify(updates[0])}`);
  return m[1]!;
}

/** What the panel should show of a thread's stored messages, in storage order (the service's copy of the final left out). */
function expectedOf(stored: Message[], thread: string): string[] {
  const mine = stored.filter((m) => m.role === 'assistant' && m.chat_thread_id === thread);
  const final = mine.find((m) => m.type === 'final_message');
  return mine
    .filter((m) => !(m.type === 'message' && m.message === final?.message))
    .map((m) => (m.type === 'tool_call' ? `tool:${m.id}` : `text:${m.message}`));
}

/** A message chunk's text without the blank line that makes it a paragraph of its own after another. */
const said = (u: SessionUpdate) => chunkText(u).replace(/^\n\n/, '');

/** The panel's updates as the same strings (message chunks and tool calls only). */
function shown(updates: SessionUpdate[]): string[] {
  return updates.flatMap((u) =>
    u.sessionUpdate === 'tool_call'
      ? [`tool:${u.toolCallId}`]
      : u.sessionUpdate === 'agent_message_chunk'
        ? [`text:${said(u)}`]
        : [],
  );
}

const stopsOf = (events: AcpEvent[], sessionId: string) =>
  events.flatMap((e) => (e.kind === 'stop' && e.sessionId === sessionId ? [e.stopReason] : []));

describe('agents acp', () => {
  it('initialize: the protocol version, loading and listing sessions, text and embedded resources, no images', async () => {
    const em = await emulator();
    const init = await initialize(start(em));
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      sessionCapabilities: { list: {} },
    });
    expect(init.authMethods).toEqual([]);
    expect(init.agentInfo?.name).toBe('agents');
  });

  it('no key: initialize names `agents login`; session/new is auth required, with the hint', async () => {
    const acp = start(undefined, [], { AGENTS_BASE_URL: 'http://127.0.0.1:9' });
    const init = await initialize(acp);
    expect(init.authMethods).toHaveLength(1);
    expect(init.authMethods?.[0]?.description).toMatch(/agents login.*AGENTS_API_KEY/);
    const refused = acp.connection.agent.request('session/new', { cwd: '/w', mcpServers: [] });
    await expect(refused).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/no API key for profile "default" \(hint: run `agents login`/) as string,
    });
    // A fresh machine, with no base URL either: the same auth-required error, which `agents login` cures.
    const bare = start(undefined);
    await initialize(bare);
    await expect(
      bare.connection.agent.request('session/new', { cwd: '/w', mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/no base URL is configured \(hint: run `agents login`/) as string,
    });
  });

  it('a prompt: the address once, each message once in the server order, tool calls, a plan, the pull requests, end_turn', async () => {
    const em = await emulator({ dialect: 'live' });
    const acp = start(em);
    const made = await newSession(acp);
    expect(made.configOptions?.[0]).toMatchObject({ id: 'agent', type: 'select', currentValue: 'claude' });
    const plan = encodeURIComponent('# Plan\n\n- [x] read the code\n- write the fix\n');
    const pr = 'https://github.com/o/r/pull/7';
    const r = await acp.prompt(
      made.sessionId,
      `Fix it [[steps:4]] [[reply:done]] [[plan:${plan}]] [[pr:${pr}]]`,
    );
    expect(r.stopReason).toBe('end_turn');
    const updates = updatesOf(acp.events, made.sessionId);
    const id = blocksIdOf(updates);
    expect(chunkText(updates[0]!)).toContain(`/sessions/${id}`);
    const stored = em.messages(id);
    const thread = stored[0]!.chat_thread_id!;
    // Text and tool calls exactly as stored, in order, once each; the PR line after the final reply.
    expect(shown(updates.slice(1))).toEqual([
      ...expectedOf(stored, thread),
      `text:Pull requests:\n- ${pr} (open)\n`,
    ]);
    const tools = updates.filter((u) => u.sessionUpdate === 'tool_call');
    expect(tools.map((t) => [t.title, t.kind, t.status])).toEqual([
      ['Read src/module-2.ts', 'read', 'completed'],
      ['Bash npm test -- --run step-4', 'execute', 'completed'],
    ]);
    const plans = updates.filter((u) => u.sessionUpdate === 'plan');
    expect(plans).toEqual([
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'read the code', priority: 'medium', status: 'completed' },
          { content: 'write the fix', priority: 'medium', status: 'pending' },
        ],
      },
    ]);
    // The plan comes before the final reply, and the prompt's end after every update.
    expect(updates.indexOf(plans[0]!)).toBeLessThan(updates.findIndex((u) => said(u) === 'done'));
    expect(acp.events.at(-1)).toEqual({ kind: 'stop', sessionId: made.sessionId, stopReason: 'end_turn' });
    // A second prompt follows up on the same session: no second address, and its own reply alone.
    const again = await acp.prompt(made.sessionId, 'And the docs [[reply:docs%20too]]');
    expect(again.stopReason).toBe('end_turn');
    const second = updatesOf(acp.events, made.sessionId).slice(updates.length);
    const latest = em.messages(id).findLast((m) => m.role === 'user')!.chat_thread_id!;
    expect(shown(second)).toEqual(expectedOf(em.messages(id), latest));
    expect(second.filter((u) => chunkText(u).includes('/sessions/'))).toEqual([]);
  });

  it('each message a paragraph of its own: two messages back to back reach the panel with a blank line between them, live and replayed', async () => {
    const em = await emulator();
    const acp = start(em);
    const made = await newSession(acp);
    // The third step is a message and the final reply follows it at once: nothing between them.
    const r = await acp.prompt(made.sessionId, 'Go [[steps:3]] [[reply:Done, see the PR.]]');
    expect(r.stopReason).toBe('end_turn');
    const id = blocksIdOf(updatesOf(acp.events, made.sessionId));
    const texts = em
      .messages(id)
      .filter((m) => m.role === 'assistant' && m.type !== 'tool_call')
      .map((m) => m.message);
    expect(texts.slice(-2)).toEqual(['claude is working on it (step 3).', 'Done, see the PR.']);
    // An editor joins the agent's chunks of one reply into one text: each message is a paragraph of it.
    const joined = (updates: SessionUpdate[]) =>
      updates
        .filter((u) => u.sessionUpdate === 'agent_message_chunk')
        .map(chunkText)
        .join('');
    const live = joined(updatesOf(acp.events, made.sessionId));
    expect(live).toContain('(step 3).\n\nDone, see the PR.');
    expect(live.split('\n\n').slice(1)).toEqual(texts);
    const other = start(em);
    await initialize(other);
    await other.connection.agent.request('session/load', { sessionId: id, cwd: '/w', mcpServers: [] });
    expect(joined(updatesOf(other.events, id))).toBe(texts.join('\n\n'));
  });

  it('cancel mid-turn: cancelled after one note, nothing after it; the next prompt shows its own turn alone', async () => {
    const em = await emulator();
    const acp = start(em);
    const made = await newSession(acp);
    // The first step lands at once; the next a thousand polls later: the turn is mid-way when cancelled.
    const pending = acp.prompt(made.sessionId, 'Slow [[steps:4]] [[gap:1000000]]');
    await until(() =>
      updatesOf(acp.events, made.sessionId).some(
        (u) => u.sessionUpdate === 'agent_message_chunk' && /step 1/.test(chunkText(u)),
      ),
    );
    await acp.connection.agent.notify('session/cancel', { sessionId: made.sessionId });
    expect((await pending).stopReason).toBe('cancelled');
    const atStop = updatesOf(acp.events, made.sessionId);
    expect(chunkText(atStop.at(-1)!)).toMatch(/goes on working .* until your next prompt interrupts it/);
    const id = blocksIdOf(atStop);
    // The remote turn goes on to its end; the panel hears nothing of it.
    em.endTurns(id);
    const next = await acp.prompt(made.sessionId, 'Now this [[reply:second]]');
    expect(next.stopReason).toBe('end_turn');
    const after = updatesOf(acp.events, made.sessionId).slice(atStop.length);
    const latest = em.messages(id).findLast((m) => m.role === 'user')!.chat_thread_id!;
    expect(shown(after)).toEqual(expectedOf(em.messages(id), latest));
    expect(shown(after).at(-1)).toBe('text:second');
    // Order of what the client saw: the note, the cancelled end, then the second prompt's updates alone.
    const order = acp.events.map((e) =>
      e.kind === 'stop' ? `stop:${e.stopReason}` : e.update.sessionUpdate,
    );
    expect(order.slice(order.indexOf('stop:cancelled') - 1)).toEqual([
      'agent_message_chunk',
      'stop:cancelled',
      'agent_message_chunk',
      'tool_call',
      'agent_message_chunk',
      'stop:end_turn',
    ]);
    // A second cancel says nothing more than the first did (the note is said once).
    const third = acp.prompt(made.sessionId, 'Again [[never]]');
    await until(() => em.messages(id).filter((m) => m.role === 'user').length === 3);
    await acp.connection.agent.notify('session/cancel', { sessionId: made.sessionId });
    expect((await third).stopReason).toBe('cancelled');
    expect(
      updatesOf(acp.events, made.sessionId).filter((u) => /goes on working/.test(chunkText(u))),
    ).toHaveLength(1);
  });

  it('cancel while the first message is on its way: cancelled at once, the POST neither cut short nor sent again', async () => {
    const em = await emulator();
    const acp = start(em);
    const made = await newSession(acp);
    // The service takes the POST and answers it ten minutes later: only a cancel that does not wait on it ends the prompt.
    em.setFaults({ rate: 1, modes: ['slow'], methods: ['POST'], slowMs: 600_000 });
    const pending = acp.prompt(made.sessionId, 'Start [[reply:late]]');
    await until(() => em.stats().sessionsCreated === 1);
    await acp.connection.agent.notify('session/cancel', { sessionId: made.sessionId });
    expect((await pending).stopReason).toBe('cancelled');
    expect(updatesOf(acp.events, made.sessionId).map(chunkText)).toEqual([
      expect.stringMatching(/goes on working/),
    ]);
    expect(em.stats().sessionsCreated).toBe(1);
  });

  it('a follow-up while a turn runs interrupts it: the first prompt ends cancelled, the second gets its reply', async () => {
    const em = await emulator();
    const acp = start(em);
    const made = await newSession(acp);
    const first = acp.prompt(made.sessionId, 'Long [[steps:2]] [[gap:1000000]]');
    await until(() => updatesOf(acp.events, made.sessionId).length >= 2);
    const id = blocksIdOf(updatesOf(acp.events, made.sessionId));
    const second = await acp.prompt(made.sessionId, 'Stop that, do this [[reply:this]]');
    expect((await first).stopReason).toBe('cancelled');
    expect(second.stopReason).toBe('end_turn');
    expect(stopsOf(acp.events, made.sessionId)).toEqual(['cancelled', 'end_turn']);
    const stored = em.messages(id);
    const threads = [...new Set(stored.filter((m) => m.role === 'user').map((m) => m.chat_thread_id))];
    expect(threads).toHaveLength(2);
    // The first turn was interrupted on the service: it never got a final reply.
    expect(stored.filter((m) => m.type === 'final_message').map((m) => m.chat_thread_id)).toEqual([
      threads[1],
    ]);
    expect(said(updatesOf(acp.events, made.sessionId).at(-1)!)).toBe('this');
  });

  it('load: any reference replays the conversation (prompts, replies, tool calls), then a prompt follows up', async () => {
    const em = await emulator();
    const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY });
    const acp = acpInProcess(env);
    runs.push(acp);
    const made = await newSession(acp);
    await acp.prompt(made.sessionId, 'First [[steps:2]] [[reply:one]]');
    const id = blocksIdOf(updatesOf(acp.events, made.sessionId));
    const listed = await acp.connection.agent.request('session/list', { cwd: '/work/project' });
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([id]);
    // Another editor window on this machine loads it by `last`.
    const other = acpInProcess(env);
    runs.push(other);
    await initialize(other);
    await other.connection.agent.request('session/load', { sessionId: 'last', cwd: '/w', mcpServers: [] });
    const replay = updatesOf(other.events, 'last');
    expect(replay.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
      'tool_call',
      'agent_message_chunk',
    ]);
    expect(chunkText(replay[0]!)).toBe('First [[steps:2]] [[reply:one]]');
    expect(said(replay.at(-1)!)).toBe('one');
    const r = await other.prompt('last', 'Second [[reply:two]]');
    expect(r.stopReason).toBe('end_turn');
    expect(said(updatesOf(other.events, 'last').at(-1)!)).toBe('two');
    expect(em.messages(id).filter((m) => m.role === 'user')).toHaveLength(2);
    // An unknown session is the CLI's not-found line, with its hint.
    await expect(
      other.connection.agent.request('session/load', {
        sessionId: '00000000-0000-4000-8000-000000000000',
        cwd: '/w',
        mcpServers: [],
      }),
    ).rejects.toMatchObject({ code: -32002, message: expect.stringContaining('hint:') as string });
  });

  it("--timeout: a prompt whose reply has not come by then fails with the CLI's time-out line; the session goes on", async () => {
    const em = await emulator();
    const acp = start(em, ['--timeout', '50ms']);
    const made = await newSession(acp);
    const late = acp.prompt(made.sessionId, 'Forever [[never]]');
    await expect(late).rejects.toMatchObject({
      message: expect.stringMatching(
        /^timed out after 50ms .*\(hint: the session goes on; resume with: agents tail /,
      ) as string,
    });
    const id = blocksIdOf(updatesOf(acp.events, made.sessionId));
    expect(em.messages(id).filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('the agent picked before the first prompt, embedded files as fenced blocks, the cwd only with --send-cwd', async () => {
    const em = await emulator();
    const acp = start(em, ['--send-cwd']);
    const made = await newSession(acp, '/home/me/app');
    const set = await acp.connection.agent.request('session/set_config_option', {
      sessionId: made.sessionId,
      configId: 'agent',
      value: 'codex',
    });
    expect(set.configOptions[0]).toMatchObject({ currentValue: 'codex' });
    const r = await acp.connection.agent.request('session/prompt', {
      sessionId: made.sessionId,
      prompt: [
        { type: 'text', text: 'Explain [[echo]]' },
        { type: 'resource', resource: { uri: 'file:///home/me/app/a.md', text: 'has ``` inside' } },
        { type: 'resource_link', uri: 'file:///home/me/app/b.ts', name: 'b.ts' },
      ],
    });
    expect(r.stopReason).toBe('end_turn');
    const id = blocksIdOf(updatesOf(acp.events, made.sessionId));
    expect(em.messages(id)[0]!.message).toBe(
      '(working directory in the editor: /home/me/app)\n\nExplain [[echo]]\n\nfile:///home/me/app/a.md\n````\nhas ``` inside\n````\n\nfile:///home/me/app/b.ts',
    );
    expect(
      updatesOf(acp.events, made.sessionId).filter((u) => /^codex is working/.test(chunkText(u))),
    ).toHaveLength(1);
    // Once the session exists, its agent is fixed.
    await expect(
      acp.connection.agent.request('session/set_config_option', {
        sessionId: made.sessionId,
        configId: 'agent',
        value: 'gemini',
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/before the first prompt/) as string,
    });
  });
});
