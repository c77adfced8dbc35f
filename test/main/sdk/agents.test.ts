// The library through its public entry alone (src/sdk/index.ts, what `import 'agents-cli'` loads), against
// the emulator in both dialects: every method, a schema's check, and the events a program is told of.
import { describe, expect, it } from 'vitest';
import {
  Agents,
  NotFoundError,
  SchemaMismatchError,
  type AgentsEvent,
  type Landed,
} from '../../../src/sdk/index.js';
import { emulator } from '../../support/emulator.js';
import { agentsOf, budgetDir } from '../../support/sdk.js';

describe.each(['spec', 'live'] as const)('the library against the %s dialect', (dialect) => {
  it('create, wait, follow, send, show: the reply, its pull requests, each message as it lands', async () => {
    const em = await emulator({ dialect });
    const agents = agentsOf(em);
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
    expect(landed.find((m) => m.kind === 'tool')?.tool?.name).toBeTruthy();

    // A session id alone: its latest turn.
    expect((await agents.wait(turn.sessionId)).text).toBe('second');

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
    const agents = agentsOf(em);
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
    const agents = agentsOf(em, { onEvent: (e) => events.push(e) });
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
    const agents = agentsOf(em);
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
