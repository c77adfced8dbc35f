// A restart of the service (the emulator's listener gone, then back on the same port) while a command
// runs: with a deadline it rides the outage out, a POST that never reached the service sent again and one
// that may have arrived never; without one, an address that never answered fails in seconds, but a service
// that answered (in this run, or on this machine lately) is ridden out. Each restart waits on what the run
// printed, never on a time: the retry lines at a terminal say when the run has met the outage.
import { describe, expect, it } from 'vitest';
import { FAST_TUNING, runMain, withoutProgress, type RunHandle } from '../../support/main.js';
import { hostile, until, type Hostile } from '../../support/hostile.js';
import type { Tuning } from '../../../src/core/io/io.js';
import { Agents } from '../../../src/sdk/index.js';
import { KEY } from '../../support/key.js';

/** Retries in milliseconds; an address that never answered is given up on at once (the old 3 s, as 0). */
const TUNING: Tuning = {
  ...FAST_TUNING,
  retry: { ...FAST_TUNING.retry, unreachableBudgetMs: 0, maxRetries: 0, outageBudgetMs: 60_000 },
};

/** Runs `args` with stderr at a terminal (so each retry is told at once), handing the run to `during`. */
async function during(h: Hostile, args: string[], tuning: Tuning, act: (run: RunHandle) => Promise<void>) {
  let run: RunHandle | undefined;
  const result = runMain(args, {
    env: h.env,
    tuning,
    tty: { stderr: true },
    onStart: (r) => {
      run = r;
    },
  });
  await act(await until(() => run));
  return result;
}

describe('a restart of the service', () => {
  it('create --wait --timeout rides out refused connections: one session, the reply, exit 0', async () => {
    const h = await hostile();
    try {
      await h.em.stopListening();
      const r = await during(
        h,
        ['create', '-a', 'claude', '--wait', '--timeout', '60s', '[[reply:back%20again]] go'],
        TUNING,
        async (run) => {
          // Told at the terminal: the refusal, retried until the deadline.
          await until(
            () => run.stderr.includes('connection refused') && run.stderr.includes('until the --timeout'),
          );
          await h.em.listenAgain();
        },
      );
      expect(r.stdout).toBe('back again');
      expect(r.code).toBe(0);
      expect(h.em.stats().sessionsCreated).toBe(1);
      expect(h.em.stats().byRoute['POST /sessions']).toBe(1);
    } finally {
      await h.close();
    }
  });

  it('show --timeout rides out the outage of a read the same way', async () => {
    const h = await hostile();
    try {
      const s = await h.createSession('[[reply:hello]] hi');
      await h.em.stopListening();
      const r = await during(h, ['show', s.id, '--json', '--timeout', '60s'], TUNING, async (run) => {
        await until(() => run.stderr.includes('until the --timeout'));
        await h.em.listenAgain();
      });
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { session: { id: string } }).session.id).toBe(s.id);
    } finally {
      await h.close();
    }
  });

  it('without --timeout, an address that never answered fails in seconds: exit 1, nothing ridden out', async () => {
    const h = await hostile();
    try {
      await h.em.stopListening();
      // Were it taken for an outage, the 60 s of TUNING would outlast the run's 20 s limit.
      const r = await runMain(['create', '-a', 'claude', 'go'], {
        env: h.env,
        tuning: { ...TUNING, retry: { ...TUNING.retry, unreachableBudgetMs: 200, maxRetries: 6 } },
        killAfterMs: 20_000,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: cannot connect to http:\/\/127\.0\.0\.1:\d+: connection refused/);
      expect(r.stderr).not.toContain('may have been created');
    } finally {
      await h.close();
    }
  });

  it('without --timeout, a wait whose create was answered rides out the outage: the reply, exit 0', async () => {
    // The turn moves only when the test ends it.
    const h = await hostile({ turnMsPerRequest: 0 });
    try {
      const r = await during(
        h,
        ['create', '-a', 'claude', '--wait', '[[reply:still%20here]] go'],
        TUNING,
        async (run) => {
          await until(() => h.em.stats().sessionsCreated === 1 && h.em.stats().requests > 1);
          await h.em.stopListening();
          await until(() => run.stderr.includes('the service may be restarting'));
          await h.em.listenAgain();
          h.em.endTurns();
        },
      );
      expect(r.stdout).toBe('still here');
      expect(r.code).toBe(0);
      expect(h.em.stats().byRoute['POST /sessions']).toBe(1);
    } finally {
      await h.close();
    }
  });

  it('without --timeout, a service this machine saw answer lately is ridden out by a new run', async () => {
    const h = await hostile();
    // The key's budget is shared through the machine's file, which remembers the answer.
    const paced: Tuning = { ...TUNING, pacing: { limit: 1000, windowMs: 60_000 } };
    try {
      const s = await h.createSession('[[reply:hello]] hi');
      const first = await runMain(['show', s.id, '--json'], { env: h.env, tuning: paced });
      expect(first.code).toBe(0);
      await h.em.stopListening();
      const r = await during(h, ['show', s.id, '--json'], paced, async (run) => {
        await until(() => run.stderr.includes('the service may be restarting'));
        await h.em.listenAgain();
      });
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { session: { id: string } }).session.id).toBe(s.id);
    } finally {
      await h.close();
    }
  });

  it('without --timeout, an outage past the budget ends with exit 1 and the line that resumes the wait', async () => {
    const h = await hostile({ turnMsPerRequest: 0 });
    try {
      const r = await runMain(['create', '-a', 'claude', '--wait', 'go'], {
        env: h.env,
        tuning: { ...TUNING, retry: { ...TUNING.retry, outageBudgetMs: 300 } },
        onStart: () => {
          void until(() => h.em.stats().requests > 1).then(() => h.em.stopListening());
        },
      });
      expect(r.code).toBe(1);
      expect(withoutProgress(r.stderr)).toMatch(
        /error: [^\n]*connection refused[^\n]*\nhint: the session goes on; resume with: agents tail [0-9a-f-]{36} --thread [0-9a-f-]{36} --until-final\n$/,
      );
      expect(h.em.stats().sessionsCreated).toBe(1);
    } finally {
      await h.close();
    }
  });

  it('--timeout never sends again a POST whose connection was cut after it was written: outcome unknown, one POST', async () => {
    const h = await hostile({ faults: { rate: 1, modes: ['reset'], methods: ['POST'] } });
    try {
      const r = await runMain(['create', '-a', 'claude', '--wait', '--timeout', '60s', 'go'], {
        env: h.env,
        tuning: TUNING,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('the session may have been created (outcome unknown)');
      expect(h.em.stats().byRoute['POST /sessions']).toBe(1);
    } finally {
      await h.close();
    }
  });
});

describe('a read bounds itself and says what is true (issue 45, item 9)', () => {
  it("a trickling body: the error names each attempt's bound, how many there were and how long they took", async () => {
    const h = await hostile();
    try {
      const s = await h.createSession('hi');
      h.em.setMisbehaviour({ trickle: { everyMs: 20, route: 'session' } });
      h.em.resetStats();
      const agents = new Agents({
        apiKey: KEY,
        baseUrl: h.em.url,
        budget: false,
        responseTimeoutMs: 100,
        tuning: { retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetries: 2 } },
      });
      const err = await agents.session(s.id).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      const attempts = h.em.stats().byRoute['GET /sessions/:id'];
      expect(attempts).toBe(3);
      expect(err?.message).toMatch(
        new RegExp(
          `no whole answer from [^ ]+ within 200 ms [^\\n]*\\(${attempts} attempts in \\d+(ms|s)\\)`,
        ),
      );
    } finally {
      await h.close();
    }
  });

  it('429s without --timeout are bounded, and the terminal is told for how long more', async () => {
    const h = await hostile();
    try {
      const s = await h.createSession('hi');
      h.em.setFaults({ rate: 1, modes: ['429'] });
      const r = await runMain(['show', s.id], {
        env: h.env,
        tuning: { ...TUNING, retry: { ...TUNING.retry, rateLimitedBudgetMs: 500 } },
        tty: { stderr: true },
      });
      expect(r.code).toBe(124);
      expect(r.stderr).toMatch(
        /retrying in \S+ \(the key is busy: for up to \S+ more; --timeout sets another bound\)/,
      );
    } finally {
      await h.close();
    }
  });
});
