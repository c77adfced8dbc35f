// A turn stored in one instant (`[[instant]]`: one created_at, one whole-second ts for all of it): only the
// server's order tells its messages apart. show, tail, wait and chat's backlog keep that order, and
// `tail --until-final` ends. `tail` prints the agent alone in a pipe and with --json; --since starts it at a time.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/api/types.js';
import { ApiClient } from '../../../src/core/api/client.js';
import { loadBacklog } from '../../../src/cli/chat/backlog.js';
import { DIALECTS, conversationOf, fixture as baseFixture } from '../../support/fixture.js';
import { KEY } from '../../support/key.js';

const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Message);

/** A turn of eight messages, each alone in its step so that their order is theirs, stored in one instant. */
const INSTANT = '[[instant]] [[think:0]] [[steps:8]] [[gap:0]] [[reply:the%20final]] hello';

describe.each(DIALECTS)('against the %s dialect', (dialect) => {
  const fixture = () => baseFixture({ dialect });

  /** A session whose first turn is stored in one instant and has ended; its stored messages. */
  async function instantTurn(f: Awaited<ReturnType<typeof fixture>>, text = INSTANT) {
    const r = await f.run(['create', '-a', 'claude', '--wait', '--json', text]);
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as Message).chat_id;
    const stored = f.em.messages(id);
    expect(new Set(stored.map((m) => m.created_at)).size).toBe(1);
    return { id, stored, agent: conversationOf(stored) };
  }

  it('show lists the turn in the order it was stored: the prompt, the agent, then the final', async () => {
    const f = await fixture();
    const { id, stored, agent } = await instantTurn(f);
    const r = await f.run(['show', id, '--tools', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const shown = (JSON.parse(r.stdout) as { messages: Message[] }).messages;
    expect(shown.map((m) => m.id)).toEqual([stored[0]!.id, ...agent.map((m) => m.id)]);
    expect(shown.at(-1)?.message).toBe('the final');
  });

  it('tail --until-final in a pipe prints the agent alone, in order, and ends', async () => {
    const f = await fixture();
    const { id, agent } = await instantTurn(f);
    const r = await f.run(['tail', id, '--until-final']);
    expect(r.code, r.stderr).toBe(0);
    const said = agent.filter((m) => m.type !== 'tool_call');
    expect(r.stdout).toBe(said.map((m) => `${m.message}\n`).join(''));
    expect(r.stdout).not.toContain('hello');
  });

  it('tail --json -n 3 gives three of the agent’s messages: the prompt is neither printed nor counted', async () => {
    const f = await fixture();
    const { id, agent } = await instantTurn(f);
    const r = await f.run(['tail', id, '-n', '3', '--until-final', '--json', '--tools']);
    expect(r.code, r.stderr).toBe(0);
    const got = lines(r.stdout);
    expect(got.map((m) => m.id)).toEqual(agent.slice(-3).map((m) => m.id));
    expect(got.every((m) => m.role === 'assistant')).toBe(true);
  });

  it('tail on a terminal shows the prompt among the backlog, marked as the user’s', async () => {
    const f = await fixture();
    const { id } = await instantTurn(f, '[[instant]] [[steps:1]] [[reply:finished%20now]] hello there');
    const r = await f.run(['tail', id, '--until-final'], { tty: { stdout: true, stderr: true } });
    expect(r.code, r.stderr).toBe(0);
    const you = r.stdout.indexOf('you');
    expect(you).toBeGreaterThanOrEqual(0);
    expect(r.stdout.indexOf('hello there')).toBeGreaterThan(you);
    expect(r.stdout.indexOf('finished now')).toBeGreaterThan(r.stdout.indexOf('hello there'));
  });

  it('tail follows a turn whose later messages share the instant of those already shown, each once', async () => {
    const f = await fixture();
    // Eight messages land with the first request after create; the final ten requests later.
    const c = await f.run(['create', '-a', 'claude', '[[instant]] [[burst:8]] [[gap:10000]] go']);
    const id = c.stdout.trim();
    const r = await f.run(['tail', id, '-n', '1', '--until-final', '--json', '--tools']);
    expect(r.code, r.stderr).toBe(0);
    const agent = conversationOf(f.em.messages(id));
    expect(new Set(f.em.messages(id).map((m) => m.created_at)).size).toBe(1);
    // The newest of the burst (-n 1), then the final: none of the burst read again, the final not dropped.
    expect(lines(r.stdout).map((m) => m.id)).toEqual(agent.slice(-2).map((m) => m.id));
  });

  it('tail -n 0 follows a turn stored in the instant of its prompt to its final', async () => {
    const f = await fixture();
    const c = await f.run([
      'create',
      '-a',
      'claude',
      '[[instant]] [[think:4000]] [[steps:4]] [[gap:2000]] go',
    ]);
    const id = c.stdout.trim();
    const r = await f.run(['tail', id, '-n', '0', '--until-final', '--json', '--tools']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).map((m) => m.id)).toEqual(conversationOf(f.em.messages(id)).map((m) => m.id));
  });

  it('wait prints the final of a turn stored in one instant', async () => {
    const f = await fixture();
    const c = await f.run(['create', '-a', 'claude', '[[instant]] [[steps:3]] [[reply:all%20done]] go']);
    const r = await f.run(['wait', c.stdout.trim()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('all done');
  });

  it('chat’s backlog reads the turn in order and knows it has ended', async () => {
    const f = await fixture();
    const { id, stored, agent } = await instantTurn(f);
    const client = new ApiClient({ baseUrl: f.em.url, apiKey: KEY, pacing: false });
    const b = await loadBacklog(
      { client: () => Promise.resolve(client), signal: new AbortController().signal },
      id,
      3,
    );
    expect(b.conversation.entries.map((e) => e.message.id)).toEqual([
      stored[0]!.id,
      ...agent.map((m) => m.id),
    ]);
    expect(b.running).toBeUndefined();
    expect(b.lastReply?.message).toBe('the final');
  });

  it('chat’s backlog knows a turn stored in one instant is still running', async () => {
    const f = await fixture();
    const c = await f.run(['create', '-a', 'claude', '[[instant]] [[burst:3]] [[never]] go']);
    const id = c.stdout.trim();
    const client = new ApiClient({ baseUrl: f.em.url, apiKey: KEY, pacing: false });
    const b = await loadBacklog(
      { client: () => Promise.resolve(client), signal: new AbortController().signal },
      id,
      3,
    );
    const prompt = f.em.messages(id)[0]!;
    expect(b.running).toEqual({ thread: prompt.chat_thread_id, since: Date.parse(prompt.created_at) });
  });
});
