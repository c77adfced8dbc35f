// The poller against the emulator over real HTTP: every hazard of the gts cursor, each with its own test.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Message, MessageType, Session } from '../../src/api/types.js';
import { Follower, MAX_FAILED_POLLS, firstMessage } from '../../src/poll/follow.js';
import type { ScheduleOptions } from '../../src/poll/schedule.js';

const KEY = 'agents-dev-key';
const FAST: ScheduleOptions = {
  minMs: 15,
  maxMs: 80,
  growth: 0.02,
  longQuietMs: 60_000,
  longMaxMs: 80,
  jitter: 0.2,
  maxErrorMs: 150,
};
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function setup(timeScale = 0.05) {
  const em = await startEmulator({ port: 0, timeScale, rateLimit: false });
  running.push(em);
  const client = new ApiClient({
    baseUrl: em.url,
    apiKey: KEY,
    pacing: false,
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetries: 8 },
  });
  return { em, client };
}

/** The assistant messages of a thread the way the poller should yield them: storage order. */
function expected(em: RunningEmulator, s: Session, threadId: string, types: string[] = ALL_TYPES) {
  return em
    .messages(s.id)
    .filter((m) => m.role === 'assistant' && m.chat_thread_id === threadId && types.includes(m.type))
    .map((m) => m.id);
}

async function collect(f: Follower): Promise<Message[]> {
  const out: Message[] = [];
  for await (const m of f) out.push(m);
  return out;
}

const ALL_TYPES: MessageType[] = ['message', 'final_message', 'tool_call'];

async function createAndFollow(message: string, timeScale?: number) {
  const { em, client } = await setup(timeScale);
  const s = await client.createSession({ agent_name: 'claude', message });
  const thread = s.thread_id ?? '';
  const f = new Follower({
    client,
    target: { sessionId: s.id, threadId: thread },
    types: ALL_TYPES,
    untilFinal: true,
    schedule: FAST,
  });
  const got = await collect(f);
  return { em, client, s, thread, got, f };
}

function expectExactlyOnce(got: Message[], want: string[]) {
  const ids = got.map((m) => m.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual(want);
}

describe('Follower: never skips, never repeats', () => {
  it('reads a burst larger than a page between two polls', async () => {
    const { em, s, thread, got } = await createAndFollow('[[think:2000]] [[burst:250]] [[gap:400]] go');
    expect(got.length).toBe(251);
    expectExactlyOnce(got, expected(em, s, thread));
    expect(got.at(-1)?.type).toBe('final_message');
  });

  it('handles many messages sharing one ts second', async () => {
    const { em, s, thread, got } = await createAndFollow('[[same-ts]] [[steps:30]] [[gap:40]] go');
    expect(new Set(got.map((m) => m.ts)).size).toBe(1);
    expect(got.length).toBe(31);
    expectExactlyOnce(got, expected(em, s, thread));
  });

  it('handles a provider clock that trails storage', async () => {
    const { em, s, thread, got } = await createAndFollow('[[ts-lag:20]] [[steps:20]] [[gap:60]] go');
    expectExactlyOnce(got, expected(em, s, thread));
  });

  it('handles ts out of storage order', async () => {
    const { em, s, thread, got } = await createAndFollow('[[ts-shuffle]] [[steps:40]] [[gap:60]] go', 0.1);
    expectExactlyOnce(got, expected(em, s, thread));
  });

  it('catches a message stored late with a ts older than ones already seen', async () => {
    const { em, client } = await setup();
    const s = await client.createSession({ agent_name: 'claude', message: '[[never]] [[steps:0]] hold' });
    const thread = s.thread_id ?? '';
    const now = Math.floor(Date.now() / 1000);
    const f = new Follower({
      client,
      target: { sessionId: s.id, threadId: thread },
      untilFinal: true,
      schedule: FAST,
    });
    const got: Message[] = [];
    const feed = (async () => {
      em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'message',
        message: 'a',
        ts: now,
      });
      await new Promise((r) => setTimeout(r, 120));
      // Stored after "a" was seen, but stamped 10 s earlier by its provider.
      em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'message',
        message: 'b',
        ts: now - 10,
      });
      await new Promise((r) => setTimeout(r, 120));
      em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'final_message',
        message: 'c',
        ts: now,
      });
    })();
    for await (const m of f) got.push(m);
    await feed;
    expect(got.map((m) => m.message)).toEqual(['a', 'b', 'c']);
  });

  it('keeps storage order even though the list defaults to newest first', async () => {
    const { got } = await createAndFollow('[[steps:12]] [[gap:20]] go');
    const created = got.map((m) => Date.parse(m.created_at));
    expect(created).toEqual([...created].sort((a, b) => a - b));
  });

  it('survives polls that fail half-way (30% faults on reads)', async () => {
    const { em, client } = await setup();
    em.setFaults({ rate: 0.3, modes: ['502', '503', 'reset', 'truncate', '429'], methods: ['GET'], seed: 7 });
    const s = await client.createSession({
      agent_name: 'claude',
      message: '[[think:1500]] [[burst:320]] go',
    });
    const thread = s.thread_id ?? '';
    const f = new Follower({
      client,
      target: { sessionId: s.id, threadId: thread },
      types: ALL_TYPES,
      untilFinal: true,
      schedule: FAST,
    });
    const got = await collect(f);
    em.setFaults(undefined);
    expect(em.stats().faultsInjected).toBeGreaterThan(0);
    expectExactlyOnce(got, expected(em, s, thread));
  });

  it('remembers a bounded number of ids however long it follows', async () => {
    const { em, client } = await setup();
    const s = await client.createSession({ agent_name: 'claude', message: '[[never]] [[steps:0]] hold' });
    const thread = s.thread_id ?? '';
    const f = new Follower({
      client,
      target: { sessionId: s.id, threadId: thread },
      untilFinal: true,
      schedule: FAST,
    });
    const base = Math.floor(Date.now() / 1000) - 2000;
    let peak = 0;
    let n = 0;
    const feed = setInterval(() => {
      for (let i = 0; i < 10 && n < 1200; i += 1, n += 1) {
        em.addMessage(s.id, {
          chat_thread_id: thread,
          role: 'assistant',
          type: n === 1199 ? 'final_message' : 'message',
          message: `m${n}`,
          ts: base + n, // one provider second per message: 1200 s of history
        });
      }
    }, 10);
    const got: Message[] = [];
    for await (const m of f) {
      got.push(m);
      peak = Math.max(peak, f.window.size);
    }
    clearInterval(feed);
    expect(got.length).toBe(1200);
    expect(new Set(got.map((m) => m.id)).size).toBe(1200);
    // The window holds its margin's worth of provider seconds (30 messages here) plus what arrives between
    // two polls (10 every 10 ms, polls at most 150 ms apart), never the whole history.
    expect(peak).toBeLessThan(400);
  });
});

describe('Follower: endings', () => {
  it('waits for the final message only, with few requests', async () => {
    const { em, client } = await setup();
    const s = await client.createSession({ agent_name: 'codex', message: '[[steps:5]] hi' });
    em.resetStats();
    const f = new Follower({
      client,
      target: { sessionId: s.id, threadId: s.thread_id ?? '' },
      types: ['final_message'],
      untilFinal: true,
      schedule: FAST,
    });
    const final = await firstMessage(f);
    expect(final.type).toBe('final_message');
    expect(final.message).toContain('codex');
    expect(em.stats().requests).toBe(f.requests);
  });

  it('ends at once on abort, with what is needed to resume', async () => {
    const { client } = await setup();
    const s = await client.createSession({ agent_name: 'claude', message: '[[never]] hi' });
    const controller = new AbortController();
    const f = new Follower({
      client,
      target: { sessionId: s.id, threadId: s.thread_id ?? '' },
      untilFinal: true,
      schedule: FAST,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('SIGINT'), 100);
    const started = Date.now();
    await expect(collect(f)).rejects.toBeDefined();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(f.resume.sessionId).toBe(s.id);
    expect(f.resume.threadId).toBe(s.thread_id);
  });

  it('ends with the error on a permanent failure (404)', async () => {
    const { client } = await setup();
    const f = new Follower({
      client,
      target: { sessionId: '00000000-0000-4000-8000-000000000000' },
      schedule: FAST,
    });
    const err = await collect(f).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('not_found');
  });

  describe('a service that keeps failing', () => {
    async function failing() {
      const { em } = await setup();
      // One attempt per poll, so each failed poll is one injected fault.
      const client = new ApiClient({ baseUrl: em.url, apiKey: KEY, pacing: false, retry: { maxRetries: 0 } });
      const s = await client.createSession({ agent_name: 'claude', message: '[[think:2000]] hi' });
      em.setFaults({ rate: 1, modes: ['503'], methods: ['GET'] });
      const failures: number[] = [];
      const follow = (extra: { maxFailedPolls?: number }) =>
        new Follower({
          client,
          target: { sessionId: s.id, threadId: s.thread_id ?? '' },
          types: ['final_message'],
          untilFinal: true,
          schedule: FAST,
          onTransientError: (_err, n) => failures.push(n),
          ...extra,
        });
      return { em, follow, failures };
    }

    it('gives up after MAX_FAILED_POLLS failed polls in a row, reporting each one it rides out', async () => {
      const { em, follow, failures } = await failing();
      const err = await collect(follow({})).catch((e: unknown) => e);
      expect((err as ApiError).kind).toBe('server');
      expect(em.stats().faultsInjected).toBe(MAX_FAILED_POLLS);
      expect(failures).toEqual([1, 2]);
    });

    it('rides out an outage of any length when allowed (a --timeout bounds it instead)', async () => {
      const { em, follow, failures } = await failing();
      const f = follow({ maxFailedPolls: Number.POSITIVE_INFINITY });
      setTimeout(() => em.setFaults(undefined), 600);
      const got = await collect(f);
      expect(got.map((m) => m.type)).toEqual(['final_message']);
      expect(failures.length).toBeGreaterThan(MAX_FAILED_POLLS);
    });
  });

  it('with seenUpTo, yields only what was stored after that point', async () => {
    const { em, client } = await setup();
    const s = await client.createSession({ agent_name: 'claude', message: '[[never]] [[steps:0]] hold' });
    const thread = s.thread_id ?? '';
    const now = Math.floor(Date.now() / 1000);
    let last: Message | undefined;
    for (let i = 0; i < 150; i += 1) {
      last = em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'message',
        message: `old${i}`,
        ts: now,
      });
    }
    const f = new Follower({
      client,
      target: { sessionId: s.id },
      untilFinal: true,
      schedule: FAST,
      seenUpTo: last?.created_at,
      immediate: true,
    });
    f.window.floor = now - 30;
    setTimeout(() => {
      em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'message',
        message: 'new',
        ts: now,
      });
      em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'final_message',
        message: 'end',
        ts: now,
      });
    }, 60);
    const got = await collect(f);
    expect(got.map((m) => m.message)).toEqual(['new', 'end']);
  });
});
