// The client against the project's emulator: the whole API for real, its gateway's refusals, its rate
// limiter, and its fault injection.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions } from '../../../src/core/api/client.js';
import { HttpError } from '../../../src/core/api/errors.js';
import { ExitCode, fromHttpError } from '../../../src/core/errors/cli-error.js';
import type { EmulatorOptions, RunningEmulator } from '../../../src/emulator/index.js';
import type { Message } from '../../../src/core/api/types.js';
import { POLL } from '../../support/test-server.js';
import { KEY } from '../../support/key.js';
import { ownEmulator } from '../../support/emulator.js';

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const e = await ownEmulator(options);
  emulators.push(e);
  return e;
}

function client(e: RunningEmulator, options: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: e.url,
    apiKey: KEY,
    pacing: false,
    retry: { baseDelayMs: 2, maxDelayMs: 10 },
    ...options,
  });
}

/** The final message of a thread, read through the client (the address is built from the base URL). */
async function finalReply(c: ApiClient, sessionId: string, threadId: string): Promise<Message> {
  let final: Message | undefined;
  await expect
    .poll(async () => {
      const page = await c.listMessages(
        { sessionId, threadId },
        { type: ['final_message'], role: 'assistant' },
      );
      final = page.items[0];
      return final !== undefined;
    }, POLL)
    .toBe(true);
  return final!;
}

describe('against the emulator', () => {
  it('creates, reads, waits for the final message, sends a follow-up and pages through 150 messages', async () => {
    const e = await emulator();
    const c = client(e);
    const created = await c.createSession({
      message: 'Hello [[burst:150]] [[reply:done]]',
      agent_name: 'claude',
    });
    expect(created.thread_id).toBeTruthy();
    const final = await finalReply(c, created.id, created.thread_id!);
    expect(final.type).toBe('final_message');
    expect(final.message).toContain('done');

    const got = await c.getSession(created.id);
    expect(got.id).toBe(created.id);

    const all: string[] = [];
    for await (const m of c.iterateMessages(
      { sessionId: created.id },
      { type: ['message', 'tool_call', 'final_message'], direction: 'asc' },
    )) {
      all.push(m.id);
    }
    const stored = e
      .messages(created.id)
      .filter((m) => m.role === 'assistant')
      .map((m) => m.id);
    expect(stored.length).toBeGreaterThan(100);
    expect(all).toEqual(stored);

    const sent = await c.sendMessage(created.id, { message: 'More [[reply:again]]' });
    expect(sent.role).toBe('user');
    // The client builds the thread's address itself; the service's link names the same one.
    expect(new URL(sent._links.final_message!.href).pathname).toBe(
      `/rest/v1/sessions/${created.id}/threads/${sent.chat_thread_id}/messages`,
    );
    const again = await finalReply(c, created.id, sent.chat_thread_id!);
    expect(again.chat_thread_id).toBe(sent.chat_thread_id);
  });

  it('maps the gateway and service refusals to kinds and exit codes', async () => {
    const e = await emulator({
      keys: [
        { key: KEY, workspace: 'dev' },
        { key: 'other-workspace-key', workspace: 'other' },
        { key: 'revoked-key-0000', workspace: 'dev', forbidden: true },
      ],
    });
    const created = await client(e).createSession({ message: 'hi', agent_name: 'codex' });
    const cases: [Promise<unknown>, string, number][] = [
      [client(e, { apiKey: 'wrong-key-1234' }).getSession(created.id), 'auth', ExitCode.AUTH],
      [client(e, { apiKey: 'revoked-key-0000' }).getSession(created.id), 'forbidden', ExitCode.AUTH],
      [client(e, { apiKey: 'other-workspace-key' }).getSession(created.id), 'not_found', ExitCode.NOT_FOUND],
      [client(e).getSession(randomUUID()), 'not_found', ExitCode.NOT_FOUND],
      [client(e).createSession({ message: 'hi' }), 'validation', ExitCode.FAILURE],
    ];
    for (const [promise, kind, exitCode] of cases) {
      const err = (await promise.catch((x: unknown) => x)) as HttpError;
      expect(err).toBeInstanceOf(HttpError);
      expect([err.kind, fromHttpError(err).exitCode]).toEqual([kind, exitCode]);
      expect(err.message).not.toMatch(/<|\n/);
      expect(err.message).not.toContain('wrong-key-1234');
    }
  });

  it('reads survive a 30% fault rate (502/503/reset/truncate/429 on GET) with correct results', async () => {
    const e = await emulator();
    const c = client(e);
    const created = await c.createSession({ message: 'Hi [[burst:120]]', agent_name: 'gemini' });
    await finalReply(c, created.id, created.thread_id!);
    const expected = e
      .messages(created.id)
      .filter((m) => m.role === 'assistant' && m.type !== 'tool_call')
      .map((m) => m.id);
    e.setFaults({ rate: 0.3, modes: ['502', '503', 'reset', 'truncate', '429'], methods: ['GET'], seed: 7 });
    for (let round = 0; round < 10; round++) {
      const got: string[] = [];
      for await (const m of c.iterateMessages({ sessionId: created.id }, { direction: 'asc' }))
        got.push(m.id);
      expect(got).toEqual(expected);
      expect((await c.getSession(created.id)).id).toBe(created.id);
    }
    expect(e.stats().faultsInjected).toBeGreaterThan(5);
  });

  it('a create reset after the emulator committed is not repeated, and says the outcome is unknown', async () => {
    const e = await emulator({ faults: { rate: 1, modes: ['reset-after-commit'], methods: ['POST'] } });
    const err = (await client(e, { retry: { maxRetries: 6, baseDelayMs: 1 } })
      .createSession({ message: 'hi', agent_name: 'claude' })
      .catch((x: unknown) => x)) as HttpError;
    expect(err.outcomeUnknown).toBe(true);
    expect(err.message).toMatch(/session may have been created/);
    expect(e.stats().sessionsCreated).toBe(1);
    expect(e.stats().byRoute['POST /sessions']).toBe(1);
  });

  it('pacing keeps a burst under the emulator’s own rate limit: no 429 at all', async () => {
    const rate = { limit: 10, windowMs: 300 };
    const e = await emulator({ rateLimit: rate });
    const c = client(e, { apiKey: KEY, pacing: rate, retry: { maxRetries: 0 } });
    const created = await c.createSession({ message: 'hi', agent_name: 'claude' });
    await Promise.all(Array.from({ length: 50 }, () => c.getSession(created.id)));
    expect(e.stats().rejected429).toBe(0);
    expect(c.requestCount).toBe(51);
  });
});
