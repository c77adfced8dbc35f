// Every fault mode of the emulator at 10 %, 30 % and 50 % of the requests (seeded, several seeds) while
// create --wait, send --wait, show --all and tail --until-final run as a script would run them. Each must
// still end with the exact output, every message once and in order, and never a second session; when the
// faults never stop, with one clean `error:` line and exit 1 in bounded time.
import { afterAll, describe, expect, it } from 'vitest';
import { withoutProgress } from '../../support/main.js';
import type { Message } from '../../../src/core/api/types.js';
import {
  FAULT_MODES,
  type EmulatorOptions,
  type FaultMode,
  type FaultOptions,
} from '../../../src/emulator/index.js';
import { backoffDelay, DEFAULT_RETRY } from '../../../src/core/api/backoff.js';
import { MAX_FAILED_POLLS } from '../../../src/core/poll/follow.js';
import { DEFAULT_SCHEDULE, nextDelay } from '../../../src/core/poll/schedule.js';
import { finished, hostile, ndjson, shown, STACK, until, type Hostile } from '../../support/hostile.js';

const RATES = [0.1, 0.3, 0.5];
const SEEDS = [7, 1234, 99991, 31337, 4242];
// Every mode but 500: the contract retries reads on 502, 503 and 504 only (a 500 is the service's own
// failure, not a passing one), so a 500 ends a read with an error; that has its own test below.
const FLAKY: FaultMode[] = FAULT_MODES.filter((m) => m !== '500');
// `slow` answers after slowMs, not time-scaled: short, so that it delays without tripping the 30 s time-out.
const SLOW_MS = 120;

/** Figures for the report, printed once at the end. */
const tally = { runs: 0, correct: 0, faults: 0, createdOk: 0, createUnknown: 0 };
afterAll(() => {
  console.log(
    `[faults] runs ${tally.runs}, ended correctly ${tally.correct}, faults injected ${tally.faults}; ` +
      `create --wait: ${tally.createdOk} answered, ${tally.createUnknown} ended on an unknown POST outcome`,
  );
});

async function withEm<T>(
  faults: FaultOptions | undefined,
  body: (h: Hostile) => Promise<T>,
  opts: EmulatorOptions = {},
): Promise<T> {
  const h = await hostile(faults ? { faults, ...opts } : opts);
  try {
    return await body(h);
  } finally {
    tally.runs += 1;
    tally.faults += h.em.stats().faultsInjected;
    await h.close();
  }
}

function faults(rate: number, seed: number, methods?: ('GET' | 'POST')[]): FaultOptions {
  return { rate, seed, modes: FLAKY, slowMs: SLOW_MS, ...(methods ? { methods } : {}) };
}

/** The one-line error (plus an optional hint line) of the contract, without a stack trace. */
/** stderr of a run that ended well: empty, but for warnings of polls that failed all their retries. */
function expectOnlyRiddenOut(stderr: string) {
  expect(withoutProgress(stderr)).toMatch(
    /^(warning: (the service is failing: [^\n]+; still waiting \(attempt [12] of 3\)|the key's requests are spent for now \(429, other processes or machines\); still waiting)\n)*$/,
  );
}

function expectCleanError(raw: string) {
  const stderr = withoutProgress(raw);
  // Warnings of the failures a wait rode out may come first.
  expect(stderr).toMatch(/^(warning: [^\n]+\n)*error: [^\n]+\n(hint: [^\n]+\n)?$/);
  expect(stderr).not.toMatch(STACK);
}

/** The two lines a create whose POST may have reached the service must print. */
const UNKNOWN_SESSION =
  /^error: the session (may have been created \(outcome unknown\)|was created, but the answer could not be read): [^\n]+\nhint: it was not sent again, to avoid a duplicate; look for it in the dashboard before creating it again\n$/;

const matrix = RATES.flatMap((rate) => SEEDS.map((seed) => ({ rate, seed })));

describe.concurrent('flaky service: every command still ends right', () => {
  it.for(matrix)('create --wait at $rate (seed $seed)', async ({ rate, seed }) => {
    const text = `answer for ${rate}/${seed}\n  with "quotes", a [bracket] and ünïcode`;
    await withEm(faults(rate, seed), async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', `[[reply:${encodeURIComponent(text)}]] go`], {
        killAfterMs: 60_000,
      });
      const created = em.stats().sessionsCreated;
      if (r.code === 0) {
        expect(r.stdout).toBe(text);
        expectOnlyRiddenOut(r.stderr);
        expect(created).toBe(1);
        tally.createdOk += 1;
      } else {
        // Only a POST whose outcome is unknown may end the run: the CLI must say so and not try again.
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(UNKNOWN_SESSION);
        expect(created).toBeLessThanOrEqual(1);
        expect(r.stdout).toBe('');
        tally.createUnknown += 1;
      }
      expect(em.stats().byRoute['POST /sessions'] ?? 0).toBeGreaterThanOrEqual(1);
      tally.correct += 1;
    });
  });

  it.for(matrix)('send --wait at $rate (seed $seed)', async ({ rate, seed }) => {
    const text = `follow-up answer ${rate}/${seed}`;
    await withEm(undefined, async ({ em, run, createSession }) => {
      const s = await createSession('[[reply:old%20answer]] first');
      await until(() => finished(em, s.id));
      em.setFaults(faults(rate, seed, ['GET']));
      const r = await run(
        ['send', s.id, '--wait', `[[think:300]] [[reply:${encodeURIComponent(text)}]] next`],
        {
          killAfterMs: 60_000,
        },
      );
      expectOnlyRiddenOut(r.stderr);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(text);
      expect(em.stats().followUps).toBe(1);
      tally.correct += 1;
    });
  });

  it.for(matrix)('show --all at $rate (seed $seed)', async ({ rate, seed }) => {
    await withEm(undefined, async ({ em, run, createSession }) => {
      const s = await createSession('first');
      await until(() => finished(em, s.id));
      const thread = s.thread_id!;
      // 130 more user messages and 390 assistant ones (260 shown): both streams span several pages of 100.
      for (let i = 0; i < 130; i++) {
        em.addMessage(s.id, { chat_thread_id: thread, role: 'user', type: 'message', message: `ask ${i}` });
        em.addMessage(s.id, {
          chat_thread_id: thread,
          role: 'assistant',
          type: 'message',
          message: `step ${i}`,
        });
        em.addMessage(s.id, {
          chat_thread_id: thread,
          role: 'assistant',
          type: 'tool_call',
          message: `tool ${i}`,
        });
        em.addMessage(s.id, {
          chat_thread_id: thread,
          role: 'assistant',
          type: 'final_message',
          message: `done ${i}`,
        });
      }
      em.setFaults(faults(rate, seed));
      const r = await run(['show', s.id, '--all', '--json'], { killAfterMs: 60_000 });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as { session: { id: string }; messages: Message[] };
      expect(out.session.id).toBe(s.id);
      const want = shown(em.messages(s.id));
      expect(want.length).toBeGreaterThan(300);
      expect(out.messages.map((m) => m.id)).toEqual(want);
      tally.correct += 1;
    });
  });

  it.for(matrix)('tail --until-final at $rate (seed $seed)', async ({ rate, seed }) => {
    await withEm(
      undefined,
      async ({ em, run, createSession }) => {
        // A turn of 60 intermediates on a clock counted in requests: tail joins it once it is under way,
        // and each request the emulator answers moves it on by one or two of them, so they land between
        // tail's polls.
        const s = await createSession('[[steps:60]] [[gap:400]] [[reply:the%20end]] [[think:0]] go');
        em.advanceTurns(2000);
        expect(em.messages(s.id).length).toBeGreaterThan(5);
        em.setFaults(faults(rate, seed));
        const r = await run(['tail', s.id, '--until-final', '--json', '-n', '10000'], {
          killAfterMs: 60_000,
        });
        expectOnlyRiddenOut(r.stderr);
        expect(r.code).toBe(0);
        const got = ndjson(r.stdout);
        // The backlog and what follows: the assistant's messages alone (--json prints no prompt).
        const want = em.messages(s.id).filter((m) => m.role === 'assistant');
        expect(
          got.map((m) => m.id),
          `stderr:\n${r.stderr}`,
        ).toEqual(shown(want));
        expect(got.at(-1)?.message).toBe('the end');
        tally.correct += 1;
      },
      { turnMsPerRequest: 600 },
    );
  });
});

// Bounded time without timing a run: the runs below use FAST_TUNING's millisecond waits, so what bounds
// them is the number of attempts, which the tests count. Those counts, spent with the real schedule
// (src/core/api/backoff.ts: 6 retries, waits of at most 0.5+1+2+4+8+8 s, or 16 s for the last after a 429;
// src/core/poll/schedule.ts between failed polls), every wait at its longest, stay within what a script can sit
// through.
const BOUND_MS = 45_000;

/** The longest one call takes with the real retry schedule when every attempt fails: each wait at its ceiling. */
function worstCallMs(rateLimited = true): number {
  let ms = 0;
  for (let retry = 1; retry <= DEFAULT_RETRY.maxRetries; retry++) {
    ms += backoffDelay(retry, DEFAULT_RETRY, { rateLimited }, () => 1);
  }
  return Math.min(ms, DEFAULT_RETRY.totalBudgetMs);
}

/** The longest a wait that gives up after `polls` failed polls takes with the real schedules. */
function worstWaitMs(polls: number, rateLimited: boolean): number {
  let ms = DEFAULT_SCHEDULE.minMs;
  for (let failed = 1; failed <= polls; failed++) {
    ms += worstCallMs(rateLimited);
    if (failed < polls) ms += nextDelay(ms, failed, DEFAULT_SCHEDULE, () => 1);
  }
  return ms;
}

describe.concurrent('a POST whose outcome is unknown is never repeated', () => {
  const unknown: FaultMode[] = ['500', '502', '503', '504', 'html-502', 'reset'];
  it.for(unknown)('create under %s: exit 1, "may have been created", no session, one POST', async (mode) => {
    await withEm({ rate: 1, modes: [mode], methods: ['POST'] }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', 'go']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(UNKNOWN_SESSION);
      expect(r.stderr).toContain('may have been created');
      expect(em.stats().byRoute['POST /sessions']).toBe(1);
      expect(em.stats().sessionsCreated).toBe(0);
      tally.correct += 1;
    });
  });

  it('create under reset-after-commit: exit 1, "may have been created", exactly one session', async () => {
    await withEm({ rate: 1, modes: ['reset-after-commit'], methods: ['POST'] }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', 'go']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(UNKNOWN_SESSION);
      expect(r.stderr).toContain('may have been created');
      expect(em.stats().byRoute['POST /sessions']).toBe(1);
      expect(em.stats().sessionsCreated).toBe(1);
      tally.correct += 1;
    });
  });

  it('create under truncate: exit 1, "was created, but the answer could not be read", one session', async () => {
    await withEm({ rate: 1, modes: ['truncate'], methods: ['POST'] }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', 'go']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(UNKNOWN_SESSION);
      expect(r.stderr).toContain('was created, but the answer could not be read');
      expect(em.stats().sessionsCreated).toBe(1);
      expect(em.stats().byRoute['POST /sessions']).toBe(1);
      tally.correct += 1;
    });
  });

  it('create under slow (answer late, within the time-out): the answer, one session', async () => {
    await withEm({ rate: 1, modes: ['slow'], methods: ['POST'], slowMs: 800 }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', '[[reply:late%20but%20fine]] go']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('late but fine');
      expect(em.stats().sessionsCreated).toBe(1);
      tally.correct += 1;
    });
  });

  it('create under a plain-text 429 forever: ridden out (never processed) until --timeout, then 124, no session', async () => {
    await withEm({ rate: 1, modes: ['429'], methods: ['POST'] }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', '--timeout', '1s', 'go']);
      // A 429 is the service saying "later" about a create it never carried out: never exit 1.
      expect(r.code).toBe(124);
      expect(r.stderr).toMatch(
        /^error: timed out after 1s; the session was not created \(nothing the service acted on was sent\)\n/,
      );
      expectCleanError(r.stderr);
      expect(r.stderr).not.toContain('may have been created');
      expect(em.stats().byRoute['POST /sessions']).toBeGreaterThan(1);
      expect(em.stats().sessionsCreated).toBe(0);
      tally.correct += 1;
    });
  });

  it('create answered just after --timeout ran out: the answer is read, not cut off; 124 naming the session', async () => {
    await withEm({ rate: 1, modes: ['slow'], methods: ['POST'], slowMs: 1200 }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', '--timeout', '1s', 'go']);
      expect(r.code).toBe(124);
      expect(em.stats().sessionsCreated).toBe(1);
      // Not "may have been created": the session is named, with the command that picks the wait up.
      expect(r.stderr).not.toContain('may have been created');
      const named = /resume with: agents tail ([0-9a-f-]{36})/.exec(r.stderr)?.[1] ?? '';
      expect(em.messages(named).length).toBeGreaterThan(0);
      expectCleanError(r.stderr);
      tally.correct += 1;
    });
  });

  it('without --timeout, a create refused with 429 for longer than the 429 budget ends with 124, never 1', async () => {
    await withEm({ rate: 1, modes: ['429'], methods: ['POST'] }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', 'go']);
      expect(r.code).toBe(124);
      expect(r.stderr).toMatch(
        /^error: rate limit exceeded \(HTTP 429\)[^\n]*\nhint: the key allows 100 requests a minute/,
      );
      // 429s do not count against the retries: more attempts than the budget of failures allows (counted over
      // the 429 budget, three times the 1 s above, so that a loaded machine still fits them in).
      expect(em.stats().byRoute['POST /sessions']).toBeGreaterThan(1 + DEFAULT_RETRY.maxRetries);
      expect(em.stats().sessionsCreated).toBe(0);
      tally.correct += 1;
    });
  });

  it('send under reset-after-commit: exit 1, "may have been created", how to check, one follow-up', async () => {
    await withEm(undefined, async ({ em, run, createSession }) => {
      const s = await createSession('first');
      em.setFaults({ rate: 1, modes: ['reset-after-commit'], methods: ['POST'] });
      const r = await run(['send', s.id, '--wait', 'again']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: the message may have been created \\(outcome unknown\\): [^\\n]+\\nhint: it was not sent again, to avoid a duplicate; check with: agents show ${s.id}\\n$`,
        ),
      );
      expect(em.stats().followUps).toBe(1);
      expect(em.stats().byRoute['POST /sessions/:id/messages']).toBe(1);
      tally.correct += 1;
    });
  });
});

describe.concurrent('faults that never stop: one clean error, exit 1, in bounded time', () => {
  // No 429 among them: a 429 never counts against the retries (the cases above ride them out).
  const reads: FaultMode[] = ['502', '503', '504', 'html-502', 'reset', 'truncate'];
  it('show --all', async () => {
    await withEm(undefined, async ({ em, run, createSession }) => {
      const s = await createSession('first');
      em.setFaults({ rate: 1, modes: reads, seed: 5 });
      em.resetStats();
      const r = await run(['show', s.id, '--all']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expectCleanError(r.stderr);
      expect(em.stats().requests).toBe(7);
      expect(em.stats().faultsInjected).toBe(7);
      expect(worstCallMs()).toBeLessThan(BOUND_MS);
      tally.correct += 1;
    });
  });

  it('tail --until-final', async () => {
    await withEm(undefined, async ({ em, run, createSession }) => {
      const s = await createSession('[[never]] first');
      em.setFaults({ rate: 1, modes: reads, seed: 6 });
      em.resetStats();
      const r = await run(['tail', s.id, '--until-final']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expectCleanError(r.stderr);
      // The backlog read: the first attempt and the retries of the budget, then the error.
      expect(em.stats().requests).toBe(7);
      expect(em.stats().faultsInjected).toBe(7);
      expect(worstCallMs()).toBeLessThan(BOUND_MS);
      tally.correct += 1;
    });
  });

  // The wait rides out MAX_FAILED_POLLS (3) polls in a row that each used up the client's retries, then
  // gives up naming the session (the script has no id otherwise) and how to resume.
  it('create --wait (every GET fails once the session exists)', async () => {
    const modes: FaultMode[] = ['502', '503', '504', 'html-502', 'reset', 'truncate'];
    await withEm({ rate: 1, modes, seed: 8, methods: ['GET'] }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', 'go']);
      const id = r.stderr.match(/session ([0-9a-f-]{36})\)/)?.[1] ?? '?';
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(withoutProgress(r.stderr)).toMatch(
        /^(?:warning: the service is failing: [^\n]+; still waiting \(attempt [12] of 3\)\n){2}error: [^\n]+ \(gave up waiting on session [0-9a-f-]{36}\)\nhint: the session goes on; resume with: agents tail [0-9a-f-]{36} --thread [0-9a-f-]{36} --until-final\n$/,
      );
      expect(em.messages(id).length).toBeGreaterThan(0);
      expect(em.stats().sessionsCreated).toBe(1);
      // 3 polls of 7 attempts each, after the create, and nothing more: with the real waits, under 100 s.
      expect(em.stats().faultsInjected).toBe(21);
      expect(em.stats().requests).toBe(22);
      // No 429 among these faults: a 429 never counts towards giving up.
      expect(worstWaitMs(MAX_FAILED_POLLS, false)).toBeLessThan(100_000);
      tally.correct += 1;
    });
  });

  // With --timeout the user bounded the wait: it rides out the outage until then, saying so, and ends 124.
  // With FAST_TUNING a failed poll takes well under a second, so 4 s hold more failed polls than a wait
  // without --timeout would ride out (it gives up at the MAX_FAILED_POLLS-th).
  it('create --wait --timeout (every GET fails): keeps trying until the deadline, then 124', async () => {
    await withEm({ rate: 1, modes: ['503', 'reset'], seed: 9, methods: ['GET'] }, async ({ em, run }) => {
      const r = await run(['create', '-a', 'claude', '--wait', '--timeout', '4s', 'go']);
      expect(r.code).toBe(124);
      expect(r.stdout).toBe('');
      const id = r.stderr.match(/session ([0-9a-f-]{36})\n/)?.[1] ?? '?';
      expect(em.messages(id).length).toBeGreaterThan(0);
      const thread = em.messages(id)[0]?.chat_thread_id ?? '?';
      expect(withoutProgress(r.stderr)).toMatch(
        new RegExp(
          `^(?:warning: the service is failing: [^\\n]+; still waiting\\n){${MAX_FAILED_POLLS},}` +
            `error: timed out after 4s waiting on session ${id}\\n` +
            `hint: the session goes on; resume with: agents tail ${id} --thread ${thread} --until-final\\n$`,
        ),
      );
      expect(r.stderr).not.toContain('gave up');
      // No count-down of failed polls (each poll's own attempts are said, in its error).
      expect(r.stderr).not.toMatch(/attempt \d+ of/);
      expect(em.stats().sessionsCreated).toBe(1);
      expect(em.stats().faultsInjected).toBeGreaterThan(MAX_FAILED_POLLS * 7);
      tally.correct += 1;
    });
  });

  it('a 500 on a read is not retried (the contract retries 502/503/504 only): one error at once', async () => {
    await withEm(undefined, async ({ em, run, createSession }) => {
      const s = await createSession('first');
      em.setFaults({ rate: 1, modes: ['500'] });
      em.resetStats();
      const r = await run(['show', s.id]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        'error: the service failed (HTTP 500 INTERNAL): Internal server error\nhint: the service is failing; try again in a moment\n',
      );
      expect(em.stats().requests).toBe(1);
      tally.correct += 1;
    });
  });
});
