// The poller against the emulator over real HTTP: every hazard of the gts cursor, each with its own test.
// Messages are added when the poller has reached a given point (a message yielded, a request made), never
// after a fixed sleep.
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.js';
import { HttpError } from '../../../src/core/api/errors.js';
import { CliError, ExitCode } from '../../../src/core/errors/cli-error.js';
import type { FaultMode, RunningEmulator } from '../../../src/emulator/index.js';
import type { Message, MessageType, Session } from '../../../src/core/api/types.js';
import { Follower, MAX_FAILED_POLLS, firstMessage } from '../../../src/core/poll/follow.js';
import type { ScheduleOptions } from '../../../src/core/poll/schedule.js';
import { startDeadline } from '../../../src/core/sessions/deadline.js';
import { resumeCommand, waitError } from '../../../src/core/sessions/await-reply.js';
import { POLL } from '../../support/test-server.js';
import { KEY } from '../../support/key.js';
import { ownEmulator } from '../../support/emulator.js';

const FAST: ScheduleOptions = {
  minMs: 15,
  maxMs: 80,
  growth: 0.02,
  longQuietMs: 60_000,
  longMaxMs: 80,
  jitter: 0.2,
  maxErrorMs: 150,
  warmupMs: 0,
  warmupSpeedup: 1,
};
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function setup() {
  const em = await ownEmulator();
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

async function createAndFollow(message: string) {
  const { em, client } = await setup();
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
    const { em, s, thread, got } = await createAndFollow('[[ts-shuffle]] [[steps:40]] [[gap:60]] go');
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
    /** Resolves once `text` has been yielded and the poller has since sent another request. */
    const seenAndPolledAgain = async (text: string) => {
      await expect.poll(() => got.some((m) => m.message === text), POLL).toBe(true);
      const requests = f.requests;
      await expect.poll(() => f.requests, POLL).toBeGreaterThan(requests);
    };
    const feed = (async () => {
      em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'message',
        message: 'a',
        ts: now,
      });
      await seenAndPolledAgain('a');
      // Stored after "a" was seen and the cursor moved on, but stamped 10 s earlier by its provider.
      em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'message',
        message: 'b',
        ts: now - 10,
      });
      await seenAndPolledAgain('b');
      em.addMessage(s.id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'final_message',
        message: 'c',
        ts: now,
      });
    })();
    const follow = (async () => {
      for await (const m of f) got.push(m);
    })();
    await Promise.all([feed, follow]);
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
      schedule: { ...FAST, minMs: 2 },
    });
    const base = Math.floor(Date.now() / 1000) - 2000;
    let peak = 0;
    let n = 0;
    // Ten new messages each time the poller has sent another request.
    const feed = (async () => {
      for (;;) {
        const requests = f.requests;
        for (let i = 0; i < 10 && n < 1200; i += 1, n += 1) {
          em.addMessage(s.id, {
            chat_thread_id: thread,
            role: 'assistant',
            type: n === 1199 ? 'final_message' : 'message',
            message: `m${n}`,
            ts: base + n, // one provider second per message: 1200 s of history
          });
        }
        if (n >= 1200) return;
        await expect.poll(() => f.requests, POLL).toBeGreaterThan(requests);
      }
    })();
    const got: Message[] = [];
    const follow = (async () => {
      for await (const m of f) {
        got.push(m);
        peak = Math.max(peak, f.window.size);
      }
    })();
    await Promise.all([feed, follow]);
    expect(got.length).toBe(1200);
    expect(new Set(got.map((m) => m.id)).size).toBe(1200);
    // The window holds its margin's worth of provider seconds (30 messages here) plus what arrives between
    // two polls (10 per request), never the whole history.
    expect(peak).toBeLessThan(100);
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
    const { em } = await setup();
    const trace: string[] = [];
    const client = new ApiClient({
      baseUrl: em.url,
      apiKey: KEY,
      pacing: false,
      debug: (line) => trace.push(line),
    });
    const s = await client.createSession({ agent_name: 'claude', message: '[[never]] hi' });
    const thread = s.thread_id ?? '';
    // Shown already, so the first poll goes at once; every gap after it is a minute long.
    const shown = em.addMessage(s.id, {
      chat_thread_id: thread,
      role: 'assistant',
      type: 'message',
      message: 'shown',
      ts: Math.floor(Date.now() / 1000),
    });
    const slow: ScheduleOptions = { ...FAST, minMs: 60_000, maxMs: 60_000, longMaxMs: 60_000, jitter: 0 };
    const controller = new AbortController();
    const deadline = startDeadline(controller.signal, undefined);
    const f = new Follower({
      client,
      target: { sessionId: s.id, threadId: thread },
      untilFinal: true,
      schedule: slow,
      signal: deadline.signal,
      after: [shown],
    });
    const ended = collect(f).then(
      () => 'ended without an error',
      (err: unknown) => err,
    );
    // The first poll has been answered: the poller now waits a minute, unless the abort ends the wait.
    await expect.poll(() => trace.filter((l) => l.startsWith('← 200')).length, POLL).toBe(1);
    controller.abort('SIGINT');
    const err = await ended;
    expect(err).toBe('SIGINT');
    expect(f.requests).toBe(1);
    // What the CLI then prints: the session, its thread and the command that picks the wait up again.
    const mapped = waitError(err, deadline, controller.signal, s.id, thread) as CliError;
    expect(mapped).toBeInstanceOf(CliError);
    expect(mapped.exitCode).toBe(ExitCode.INTERRUPTED);
    expect(mapped.message).toBe(`interrupted while waiting on session ${s.id}`);
    expect(mapped.hint).toBe(`the session goes on; resume with: ${resumeCommand(s.id, thread)}`);
    expect(resumeCommand(s.id, thread)).toBe(`agents tail ${s.id} --thread ${thread} --until-final`);
  });

  it('ends with the error on a permanent failure (404)', async () => {
    const { client } = await setup();
    const f = new Follower({
      client,
      target: { sessionId: '00000000-0000-4000-8000-000000000000' },
      schedule: FAST,
    });
    const err = await collect(f).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).kind).toBe('not_found');
  });

  describe('a service that keeps failing', () => {
    async function failing(modes: FaultMode[] = ['503']) {
      const { em } = await setup();
      // One attempt per poll, so each failed poll is one injected fault; a 429 too (the transport would
      // otherwise ride it out itself, for seconds of backoff, and the poller would never see one).
      const client = new ApiClient({
        baseUrl: em.url,
        apiKey: KEY,
        pacing: false,
        // No ride through the outage of a service that answered (the create) either.
        retry: { maxRetries: 0, rateLimitedBudgetMs: 0, outageBudgetMs: 0 },
      });
      const s = await client.createSession({ agent_name: 'claude', message: '[[think:2000]] hi' });
      em.setFaults({ rate: 1, modes, methods: ['GET'] });
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
      expect((err as HttpError).kind).toBe('server');
      expect(em.stats().faultsInjected).toBe(MAX_FAILED_POLLS);
      expect(failures).toEqual([1, 2]);
    });

    it('never gives up on 429s: the key is busy elsewhere, the service is up', async () => {
      const { em, follow, failures } = await failing(['429']);
      let ended = false;
      const pending = collect(follow({})).finally(() => (ended = true));
      // More refused polls than MAX_FAILED_POLLS, each told as a failure that does not count.
      await expect.poll(() => ended || em.stats().faultsInjected > MAX_FAILED_POLLS + 1, POLL).toBe(true);
      em.setFaults(undefined);
      const got = await pending;
      expect(got.map((m) => m.type)).toEqual(['final_message']);
      expect(failures.length).toBeGreaterThan(MAX_FAILED_POLLS);
      expect(failures.every((n) => n === 0)).toBe(true);
    });

    it('rides out an outage of any length when allowed (a --timeout bounds it instead)', async () => {
      const { em, follow, failures } = await failing();
      const f = follow({ maxFailedPolls: Number.POSITIVE_INFINITY });
      let ended = false;
      const pending = collect(f).finally(() => (ended = true));
      // The outage outlasts MAX_FAILED_POLLS failed polls (or the follow gave up, which fails below).
      await expect.poll(() => ended || failures.length > MAX_FAILED_POLLS, POLL).toBe(true);
      em.setFaults(undefined);
      const got = await pending;
      expect(got.map((m) => m.type)).toEqual(['final_message']);
      expect(failures.length).toBeGreaterThan(MAX_FAILED_POLLS);
      expect(failures).toEqual(failures.map((_, i) => i + 1));
    });
  });

  it('wake() polls again at once, whether called between polls or during the gap', async () => {
    const { em, client } = await setup();
    const s = await client.createSession({ agent_name: 'claude', message: '[[never]] [[steps:0]] hold' });
    const thread = s.thread_id ?? '';
    // Every gap is a minute: without wake() the messages below would come after the test's time-out.
    const minute = { ...FAST, minMs: 60_000, maxMs: 60_000, longMaxMs: 60_000, jitter: 0 };
    const add = (message: string) =>
      em.addMessage(s.id, { chat_thread_id: thread, role: 'assistant', type: 'message', message });
    // A message shown already: the first poll goes at once.
    const f = new Follower({ client, target: { sessionId: s.id }, schedule: minute, after: [add('shown')] });
    const polls = f.batches();
    const texts = (r: IteratorResult<Message[]>) => (r.done ? undefined : r.value.map((m) => m.message));
    expect(texts(await polls.next())).toEqual([]);
    // Between two polls: the next one skips its gap.
    add('a');
    f.wake();
    expect(texts(await polls.next())).toEqual(['a']);
    // During the gap (next() runs up to the sleep before it returns): the sleep is cut short.
    const next = polls.next();
    add('b');
    f.wake();
    expect(texts(await next)).toEqual(['b']);
    await polls.return(undefined);
  });

  it('with after, yields only what was stored after the newest message shown', async () => {
    const { em, client } = await setup();
    const s = await client.createSession({ agent_name: 'claude', message: '[[never]] [[steps:0]] hold' });
    const thread = s.thread_id ?? '';
    const now = Math.floor(Date.now() / 1000);
    const old: Message[] = [];
    for (let i = 0; i < 150; i += 1) {
      old.push(
        em.addMessage(s.id, {
          chat_thread_id: thread,
          role: 'assistant',
          type: 'message',
          message: `old${i}`,
          ts: now,
        }),
      );
    }
    // What tail showed: the newest 20, newest first. The 130 before them are not yielded either.
    const f = new Follower({
      client,
      target: { sessionId: s.id },
      untilFinal: true,
      schedule: FAST,
      after: old.slice(-20).reverse(),
    });
    expect(f.window.floor).toBe(now - 30);
    const pending = collect(f);
    // The follow has begun reading the window: what is stored now is new.
    await expect.poll(() => f.requests, POLL).toBeGreaterThan(0);
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
    const got = await pending;
    expect(got.map((m) => m.message)).toEqual(['new', 'end']);
  });
});

describe('the deadline of a command (--timeout)', () => {
  it('comes due after what arrived while the process was stalled is read, not before', async () => {
    let accepted: (socket: Socket) => void = () => undefined;
    const serverSide = new Promise<Socket>((resolve) => (accepted = resolve));
    const server = createServer((socket) => accepted(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const peer = await serverSide;
    try {
      let answered = false;
      client.on('data', () => (answered = true));
      const deadline = startDeadline(new AbortController().signal, 1);
      const readFirst = new Promise<boolean>((resolve) =>
        deadline.signal.addEventListener('abort', () => resolve(answered)),
      );
      // The answer arrives (written to the kernel at once), and the process stalls past the time-out before
      // it runs again: the machine ran something else.
      peer.write('answer');
      const until = Date.now() + 30;
      while (Date.now() < until) {
        // busy
      }
      expect(await readFirst).toBe(true);
      expect(deadline.expired).toBe(true);
      deadline.dispose();
    } finally {
      client.destroy();
      peer.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
