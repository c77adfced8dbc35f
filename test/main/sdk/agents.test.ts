// The library through its public entry alone (src/sdk/index.ts, what `import 'agents-cli'` loads), against
// the emulator in both dialects: every method, a schema's check, and the events a program is told of.
import { describe, expect, it } from 'vitest';
import {
  Agents,
  NotFoundError,
  SchemaMismatchError,
  UsageError,
  type AgentsEvent,
  type Landed,
} from '../../../src/sdk/index.js';
import { emulator } from '../../support/emulator.js';
import { budgetDir, fastAgentsOf } from '../../support/sdk.js';
import { runMain } from '../../support/main.js';
import { KEY } from '../../support/key.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe.each(['spec', 'live'] as const)('the library against the %s dialect', (dialect) => {
  it('create, wait, follow, send, show: the reply, its pull requests, each message as it lands', async () => {
    const em = await emulator({ dialect });
    const agents = fastAgentsOf(em);
    const turn = await agents.create({
      agent: 'claude',
      message: '[[reply:first%20answer]] [[pr:https://github.com/o/r/pull/7]] [[steps:2]]',
    });
    expect(turn.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(turn.threadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(turn.url).toContain(turn.sessionId);
    const reply = await agents.wait(turn);
    expect(reply).toMatchObject({ sessionId: turn.sessionId, threadId: turn.threadId, text: 'first answer' });
    expect(reply.pullRequests.map((p) => p.url)).toEqual(['https://github.com/o/r/pull/7']);
    expect(reply.url).toContain(turn.sessionId);

    const next = await agents.send(turn.sessionId, '[[reply:second]] [[steps:3]]');
    expect(next.sessionId).toBe(turn.sessionId);
    expect(next.threadId).not.toBe(turn.threadId);
    const landed: Landed[] = [];
    for await (const m of agents.follow(next, { tools: true })) landed.push(m);
    expect(landed.at(-1)).toMatchObject({ kind: 'final', text: 'second' });
    expect(landed.filter((m) => m.kind === 'final')).toHaveLength(1);
    expect(new Set(landed.map((m) => m.kind))).toEqual(new Set(['message', 'tool', 'final']));
    // A tool call's text is the line the CLI prints for it; the raw record, as stored, is its message.
    const tool = landed.find((m) => m.kind === 'tool');
    expect(tool).toMatchObject({
      text: '⚙ Read  src/module-2.ts',
      tool: { name: 'Read', input: 'src/module-2.ts' },
    });
    expect(JSON.parse(tool!.message.message)).toMatchObject({ input: 'src/module-2.ts' });
    // The live service stores the reply as the turn's last message too: the copy is left out when it lands
    // with the final, and when it landed first the final says it repeats it, so the text is read once.
    const texts = landed.filter((m) => m.kind !== 'tool' && !m.repeats).map((m) => m.text);
    expect(texts.filter((t) => t === 'second')).toHaveLength(1);
    expect(landed.at(-1)?.repeats === true).toBe(landed.at(-2)?.text === 'second');

    // A session id alone: its latest turn.
    expect((await agents.wait(turn.sessionId)).text).toBe('second');
    // pullRequests: false reads no session for them.
    const reads = em.stats().byRoute['GET /sessions/:id'] ?? 0;
    expect(reads).toBeGreaterThan(0);
    const bare = await agents.wait(next, { pullRequests: false });
    expect(bare).toMatchObject({ text: 'second', pullRequests: [] });
    expect(em.stats().byRoute['GET /sessions/:id']).toBe(reads);

    const view = await agents.show(turn.sessionId);
    expect(view.session.id).toBe(turn.sessionId);
    expect(view.turns.map((t) => [t.threadId, t.number])).toEqual([
      [turn.threadId, 1],
      [next.threadId, 2],
    ]);
    expect(view.turns[1]!.messages.at(-1)!.message).toBe('second');
    expect(view.runningThreadId).toBeUndefined();
  });

  it('replies: many turns, each with its own reply, in the order they end', async () => {
    const em = await emulator({ dialect, turnMsPerRequest: 0 });
    const agents = fastAgentsOf(em);
    const turns = await Promise.all(
      ['a', 'b', 'c'].map((r) => agents.create({ agent: 'codex', message: `[[reply:${r}]]` })),
    );
    // Held turns: each ends when the test says, c first, then a, then b.
    const order = [turns[2]!, turns[0]!, turns[1]!];
    em.endTurns(order[0]!.sessionId);
    const got: string[] = [];
    for await (const r of agents.replies(turns)) {
      got.push(r.ok ? r.reply.text : r.error.message);
      const nextUp = order[got.length];
      if (nextUp) em.endTurns(nextUp.sessionId);
    }
    expect(got).toEqual(['c', 'a', 'b']);
  });

  it('an outputSchema: the reply checked, asked for again, the value returned; never matched, the error', async () => {
    const em = await emulator({ dialect });
    const events: AgentsEvent[] = [];
    const agents = fastAgentsOf(em, { onEvent: (e) => events.push(e) });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const fixed = await agents.create({
      agent: 'claude',
      message: 'answer [[replies:prose|%7B%22ok%22:true%7D]]',
      outputSchema: schema,
    });
    const reply = await agents.wait(fixed);
    expect(reply).toMatchObject({ output: { ok: true }, attempts: 2, sessionId: fixed.sessionId });
    expect(reply.threadId).not.toBe(fixed.threadId);
    expect(events).toContainEqual({ type: 'schema-retry', sessionId: fixed.sessionId, attempt: 1, of: 2 });

    const never = await agents.create({
      agent: 'claude',
      message: 'answer [[replies:prose]]',
      outputSchema: schema,
      schemaRetries: 1,
    });
    const err = await agents.wait(never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaMismatchError);
    expect(err).toMatchObject({
      exitCode: 5,
      attempts: 2,
      sessionId: never.sessionId,
      errors: [{ path: '', message: 'no JSON found' }],
      reply: 'prose',
    });

    // A schema given to wait alone checks the reply and sends nothing.
    const plain = await agents.create({ agent: 'claude', message: '[[reply:prose]]' });
    const before = em.stats().followUps;
    const checked = await agents.wait(plain, { outputSchema: schema }).catch((e: unknown) => e);
    expect(checked).toMatchObject({ name: 'SchemaMismatchError', attempts: 1 });
    expect(em.stats().followUps).toBe(before);
  });

  it('plan and artifact: the latest plan as text, an artifact as bytes; none is a NotFoundError', async () => {
    const em = await emulator({ dialect });
    const agents = fastAgentsOf(em);
    const turn = await agents.create({ agent: 'claude', message: '[[plan:%23%20The%20plan]]' });
    await agents.wait(turn);
    if (dialect === 'spec') {
      // The spec has no artifacts: the session lists no plan.
      await expect(agents.plan(turn.sessionId)).rejects.toBeInstanceOf(NotFoundError);
      return;
    }
    const plan = await agents.plan(turn.sessionId);
    expect(plan.text).toBe('# The plan');
    const file = em.addArtifact(turn.sessionId, { kind: 'file', content: Buffer.from([0, 1, 2, 255]) });
    const got = await agents.artifact(turn.sessionId, file.id);
    expect([...got.bytes]).toEqual([0, 1, 2, 255]);
    expect(got.kind).toBe('file');
    const none = await agents.artifact(turn.sessionId, crypto.randomUUID()).catch((e: unknown) => e);
    expect(none).toMatchObject({ name: 'NotFoundError', exitCode: 4 });
  });
});

describe('Agents.fromConfig', () => {
  it("takes the CLI's settings from the environment, then the profile; none is a UsageError", async () => {
    const em = await emulator();
    const dir = mkdtempSync(join(tmpdir(), 'agents-sdk-config-'));
    const made = await fastAgentsOf(em).create({ agent: 'claude', message: 'hi' });
    const env = { AGENTS_CONFIG_DIR: dir, AGENTS_API_KEY: KEY, AGENTS_BASE_URL: em.url };
    const agents = await Agents.fromConfig({ env });
    expect((await agents.show(made.sessionId)).session.id).toBe(made.sessionId);
    // The profile written by `agents config set` (the CLI's file), read when the environment has nothing.
    const settings: [string, string][] = [
      ['base-url', em.url],
      ['api-key', KEY],
    ];
    for (const [k, v] of settings) {
      const set = await runMain(['config', 'set', k, v, '--profile', 'work'], {
        env: { AGENTS_CONFIG_DIR: dir },
      });
      expect(set.code, set.stderr).toBe(0);
    }
    const work = await Agents.fromConfig({ profile: 'work', env: { AGENTS_CONFIG_DIR: dir } });
    expect((await work.show(made.sessionId)).session.id).toBe(made.sessionId);
    await expect(Agents.fromConfig({ env: { AGENTS_CONFIG_DIR: dir } })).rejects.toBeInstanceOf(UsageError);
  });
});

describe('two clients', () => {
  it('with different keys keep separate budgets: one spent does not hold the other', async () => {
    // Each key may send 4 requests a minute, and each client is told so. One's create and show spend
    // its 4; the other's show still goes at once (with one budget for both it would wait out the minute,
    // and its timeout would end it).
    const window = { limit: 4, windowMs: 60_000 };
    const em = await emulator({
      rateLimit: window,
      keys: [
        { key: 'key-one', workspace: 'dev' },
        { key: 'key-two', workspace: 'dev' },
      ],
    });
    const one = new Agents({ apiKey: 'key-one', baseUrl: em.url, budget: { ...window, dir: budgetDir() } });
    const two = new Agents({ apiKey: 'key-two', baseUrl: em.url, budget: { ...window, dir: budgetDir() } });
    const turn = await one.create({ agent: 'claude', message: 'hi' });
    await one.show(turn.sessionId);
    expect(em.stats().requests).toBe(4);
    const seen = await two.show(turn.sessionId, { timeout: '20s' });
    expect(seen.session.id).toBe(turn.sessionId);
    expect(em.stats().rejected429).toBe(0);
  });
});

describe('what a turn carries', () => {
  it("create sends title and sessionGroupId when given; a turn carries the service's record; session() reads one", async () => {
    const em = await emulator({ dialect: 'live' });
    const agents = fastAgentsOf(em);
    const group = '0b5e6f0e-3c7a-4d7e-9d8e-2f1a3b4c5d6e';
    const turn = await agents.create({
      agent: 'claude',
      message: 'Review the nightly build [[reply:ok]] [[pr:https://github.com/o/r/pull/9]]',
      title: 'Nightly review',
      sessionGroupId: group,
    });
    expect(turn.session).toMatchObject({
      id: turn.sessionId,
      thread_id: turn.threadId,
      title: 'Nightly review',
      session_group_id: group,
    });
    expect(turn.sent).toBeUndefined();
    // Neither is sent when not given: the service names the session after its message.
    const untitled = await agents.create({ agent: 'claude', message: 'Review the nightly build' });
    expect(untitled.session).toMatchObject({ title: 'Review the nightly build', session_group_id: null });

    await agents.wait(turn);
    const before = em.stats().requests;
    const record = await agents.session(turn.sessionId);
    expect(em.stats().requests - before).toBe(1);
    expect(record).toMatchObject({ id: turn.sessionId, title: 'Nightly review' });
    expect(record.pull_requests).toHaveLength(1);

    const next = await agents.send(turn.sessionId, 'And the weekly one');
    expect(next.sent).toMatchObject({
      role: 'user',
      message: 'And the weekly one',
      chat_thread_id: next.threadId,
    });
    expect(next.session).toBeUndefined();
  });
});
