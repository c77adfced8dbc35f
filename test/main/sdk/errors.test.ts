// What a program can branch on: cancellation, time-outs, a refused key, a missing session, bad arguments
// refused before any request, and a key's budget shared by many waits in one process.
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  Agents,
  AgentsError,
  ApiError,
  AuthError,
  NotFoundError,
  TimeoutError,
  UsageError,
} from '../../../src/sdk/index.js';
import { emulator, endTurn } from '../../support/emulator.js';
import { until } from '../../support/until.js';
import { agentsOf, budgetDir, threadPolls } from '../../support/sdk.js';
import { KEY } from '../../support/key.js';

describe.each(['spec', 'live'] as const)('errors against the %s dialect', (dialect) => {
  it('an abort in the middle of a wait rejects before any further request, and nothing is sent after', async () => {
    const em = await emulator({ dialect, turnMsPerRequest: 0 });
    const agents = agentsOf(em);
    const turn = await agents.create({ agent: 'claude', message: '[[never]]' });
    const stop = new AbortController();
    const waiting = agents.wait(turn, { signal: stop.signal });
    await until(() => threadPolls(em) >= 2);
    stop.abort();
    const atAbort = em.stats().requests;
    const err = await waiting.catch((e: unknown) => e);
    // "Promptly" by event order, not a clock: the rejection came before the emulator saw another request
    // (the next poll is at least 300 ms away, far more than a rejection on a loaded machine takes).
    expect(em.stats().requests).toBe(atAbort);
    expect(err).toBeInstanceOf(AbortError);
    expect(err).toMatchObject({ exitCode: 130 });
    // Nothing after it: a whole call made later (a show, several requests) finds no poll of the wait.
    const polled = threadPolls(em);
    await agents.show(turn.sessionId);
    expect(threadPolls(em)).toBe(polled);
  });

  it('a time-out carries the session and thread to resume; the session goes on', async () => {
    const em = await emulator({ dialect, turnMsPerRequest: 0 });
    const agents = agentsOf(em);
    const turn = await agents.create({ agent: 'claude', message: '[[never]]' });
    const progress: { threadId: string; waitedMs: number }[] = [];
    const err = await agents
      .wait(turn, { timeout: 400, onProgress: (p) => progress.push(p) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toBeInstanceOf(AgentsError);
    expect(err).toMatchObject({ sessionId: turn.sessionId, threadId: turn.threadId, exitCode: 124 });
    // The service answered the wait's polls (so the time ran out on a live turn, not on a busy key), and
    // each answered poll was told, in order, with the time waited.
    const e = err as TimeoutError;
    expect(e.answered).toBe(progress.length);
    expect(e.answered).toBeGreaterThan(0);
    expect(e.rateLimited).toBe(false);
    expect(e.attempts).toBeUndefined();
    expect(progress.every((p) => p.threadId === turn.threadId)).toBe(true);
    expect(progress.map((p) => p.waitedMs)).toEqual(
      [...progress.map((p) => p.waitedMs)].sort((a, b) => a - b),
    );
    expect((await agents.show(turn.sessionId)).runningThreadId).toBe(turn.threadId);
  });

  it('timeout 0 looks once: a TimeoutError at once while the turn runs, the reply (checked) once it ended', async () => {
    const em = await emulator({ dialect, turnMsPerRequest: 0 });
    const agents = agentsOf(em);
    const turn = await agents.create({ agent: 'claude', message: '[[reply:%7B%22ok%22%3Atrue%7D]] go' });
    const before = em.stats().requests;
    const err = await agents.wait(turn, { timeout: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ sessionId: turn.sessionId, threadId: turn.threadId, answered: 1 });
    // One look: one request, no poll after it.
    expect(em.stats().requests - before).toBe(1);
    endTurn(em, turn.sessionId);
    const schema = { type: 'object', required: ['ok'] };
    const reply = await agents.wait(turn, { timeout: 0, outputSchema: schema });
    expect(reply).toMatchObject({ threadId: turn.threadId, output: { ok: true }, attempts: 1 });
    await expect(agents.wait(turn, { timeout: -1 })).rejects.toBeInstanceOf(UsageError);
  });

  it('a bad key is an AuthError whose message, hint and stack carry no key; an unknown session a NotFoundError', async () => {
    const em = await emulator({ dialect });
    const key = 'wrong-key-0123456789abcdef';
    const bad = new Agents({ apiKey: key, baseUrl: em.url, budget: { dir: budgetDir() } });
    const err = await bad.show(crypto.randomUUID()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    const e = err as AuthError;
    expect(e.exitCode).toBe(3);
    expect(e.status).toBe(dialect === 'spec' ? 401 : 403);
    expect(`${e.message}\n${e.hint}\n${e.stack}\n${JSON.stringify(e)}`).not.toContain(key);
    const missing = await agentsOf(em)
      .show(crypto.randomUUID())
      .catch((x: unknown) => x);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, exitCode: 4 });
  });

  it('bad arguments are a UsageError before any request', async () => {
    const em = await emulator({ dialect });
    const agents = agentsOf(em);
    const id = crypto.randomUUID();
    const refused: [string, () => unknown][] = [
      ['no key', () => new Agents({ apiKey: '', baseUrl: em.url })],
      ['a key with a newline', () => new Agents({ apiKey: 'a\nb', baseUrl: em.url })],
      ['a base URL of another scheme', () => new Agents({ apiKey: KEY, baseUrl: 'ftp://example.com' })],
      ['a bad budget URL', () => new Agents({ apiKey: KEY, baseUrl: em.url, budgetUrl: 'http://x' })],
      ['an unknown agent', () => agents.create({ agent: 'nobody', message: 'hi' })],
      ['agent and agentId', () => agents.create({ agent: 'claude', agentId: id, message: 'hi' })],
      ['no agent', () => agents.create({ message: 'hi' })],
      ['an empty message', () => agents.create({ agent: 'claude', message: ' ' })],
      [
        'a title over 200 characters',
        () => agents.create({ agent: 'claude', message: 'hi', title: 'x'.repeat(201) }),
      ],
      ['a blank title', () => agents.create({ agent: 'claude', message: 'hi', title: ' ' })],
      [
        'a session group that is no UUID',
        () => agents.create({ agent: 'claude', message: 'hi', sessionGroupId: 'g' }),
      ],
      ['session() of no UUID', () => agents.session('last')],
      ['a bad timeout', () => agents.create({ agent: 'claude', message: 'hi', timeout: 'soon' })],
      ['a negative timeout', () => agents.wait(id, { timeout: -1 })],
      ['schemaRetries alone', () => agents.create({ agent: 'claude', message: 'hi', schemaRetries: 1 })],
      [
        'too many retries',
        () => agents.create({ agent: 'claude', message: 'hi', outputSchema: {}, schemaRetries: 11 }),
      ],
      [
        'a schema that is none',
        () => agents.create({ agent: 'claude', message: 'hi', outputSchema: { type: 'nonsense' } }),
      ],
      ['a session id that is no UUID', () => agents.send('../../etc', 'hi')],
      ['a thread id that is no UUID', () => agents.wait({ sessionId: id, threadId: 'x' })],
      ['show of no UUID', () => agents.show('last')],
      ['an artifact id that is no UUID', () => agents.artifact(id, 'a/b')],
      ['a signal that is none', () => agents.show(id, { signal: 'stop' as unknown as AbortSignal })],
      ['follow of no UUID', () => agents.follow('x').next()],
    ];
    for (const [what, call] of refused) {
      const err = await Promise.resolve()
        .then(call)
        .catch((e: unknown) => e);
      expect(err, what).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode, what).toBe(2);
    }
    expect(em.stats().requests).toBe(0);
  });
});

describe('no raw error escapes', () => {
  it('a refused connection is an ApiError of kind connection, not the system error', async () => {
    // Port 9 (discard) on loopback: nothing listens, so the connection is refused at once.
    const agents = new Agents({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', budget: false });
    const err = await agents.show(crypto.randomUUID()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'connection', exitCode: 1, name: 'ApiError' });
    expect((err as ApiError).message).toContain('connection refused');
  });
});

describe('one key in one process', () => {
  it('50 concurrent waits draw no 429, and each gets its own reply', async () => {
    // The service allows 60 requests in 2 s and the client is told the same: 50 creates, 50 waits and
    // their reads of the session are about 150 requests, which the shared budget spreads, none refused.
    const window = { limit: 60, windowMs: 2000 };
    const em = await emulator({ rateLimit: window });
    const agents = agentsOf(em, { budget: { ...window, dir: budgetDir() } });
    const n = 50;
    const turns = await Promise.all(
      Array.from({ length: n }, (_, i) => agents.create({ agent: 'claude', message: `[[reply:task-${i}]]` })),
    );
    const replies = await Promise.all(turns.map((t) => agents.wait(t)));
    expect(replies.map((r) => r.text)).toEqual(turns.map((_, i) => `task-${i}`));
    expect(replies.map((r) => r.sessionId)).toEqual(turns.map((t) => t.sessionId));
    expect(em.stats().rejected429).toBe(0);
  });
});
