// `agents chat` in-process (main with streams that say they are terminals, keys written to stdin): where
// it refuses to start, and the parts of a conversation that need no real terminal to check. The real
// terminal is chat.pty.test.ts.
import { describe, expect, it } from 'vitest';
import { fixture, until, UUID } from '../../support/fixture.js';
import { RecordingSpawner, type RunHandle } from '../../support/main.js';

const TTY = { stdin: true, stdout: true, stderr: true, columns: 60 };

/** Runs the steps in order against a running chat; one that fails stops the run (SIGTERM: exit 130). */
function session(steps: ((run: RunHandle) => Promise<void>)[]): (run: RunHandle) => void {
  return (run) => {
    void (async () => {
      for (const step of steps) await step(run);
    })().catch(() => {
      run.kill('SIGTERM');
    });
  };
}
// eslint-disable-next-line no-control-regex -- colour is taken off to look for text
const plain = (text: string) => text.replace(/\u001b\[[\d;]*m/g, '');
const shown = (run: RunHandle) => plain(run.stdout + run.stderr);
const waitFor = (text: string) => async (run: RunHandle) => {
  await until(() => shown(run).includes(text));
};
const type = (text: string) => (run: RunHandle) => {
  run.stdin.write(text);
  return Promise.resolve();
};

describe('agents chat refuses to start without a person at a terminal', () => {
  it.each([
    ['stdin is a pipe', { stdin: false, stdout: true, stderr: true }, {}, 'standard input is not a terminal'],
    [
      'stdout is a pipe',
      { stdin: true, stdout: false, stderr: true },
      {},
      'standard output is not a terminal',
    ],
    ['CI is set', TTY, { CI: 'true' }, 'CI is set'],
    ['TERM=dumb', TTY, { TERM: 'dumb' }, 'this terminal (TERM=dumb) cannot move its cursor'],
  ])('%s: exit 2, one error line and a hint, nothing sent', async (_name, tty, env, why) => {
    const f = await fixture();
    const r = await f.run(['chat', '-a', 'claude'], { tty, env: { ...f.env, ...env }, idleStdin: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: agents chat needs a terminal: ${why}\n` +
        'hint: in scripts and CI use: agents create --wait "…", then agents send <session> --wait "…"\n',
    );
    expect(r.stdout).toBe('');
    expect(f.em.stats().requests).toBe(0);
  });

  it('has no --json output', async () => {
    const f = await fixture();
    const r = await f.run(['chat', '--json', '-a', 'claude'], { tty: TTY, idleStdin: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: agents chat has no --json output');
    expect(f.em.stats().requests).toBe(0);
  });

  it('a session reference that is none is a usage error before anything is sent', async () => {
    const f = await fixture();
    const r = await f.run(['chat', 'not-a-session'], { tty: TTY, idleStdin: true });
    expect(r.code).toBe(2);
    expect(f.em.stats().requests).toBe(0);
  });
});

describe('agents chat, in-process', () => {
  it('/help, a command that is none, /show, /open, then /new with another agent starts a second session', async () => {
    const f = await fixture();
    const spawner = new RecordingSpawner();
    const r = await f.run(['chat', '-a', 'claude'], {
      tty: TTY,
      idleStdin: true,
      // A display, so /open starts the (recording) browser rather than printing the address.
      env: { ...f.env, DISPLAY: ':0' },
      spawner,
      onStart: session([
        waitFor('claude · new session'),
        type('/help'),
        type('\r'),
        waitFor('/save FILE'),
        type('/show'),
        type('\r'),
        waitFor('no session yet'),
        type('/frobnicate'),
        type('\r'),
        waitFor('no command /frobnicate'),
        type('first'),
        type('\r'),
        waitFor('claude finished: "first". Done.'),
        type('/show'),
        type('\r'),
        waitFor('pull requests'),
        type('/open'),
        type('\r'),
        waitFor('opened in your browser: http'),
        type('/new codex'),
        type('\r'),
        waitFor('your next message starts a new session with codex'),
        type('second'),
        type('\r'),
        waitFor('codex finished: "second". Done.'),
        type('\u0004'),
      ]),
    });
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(f.em.stats().sessionsCreated).toBe(2);
    const id = /Session ([0-9a-f-]{36})/.exec(r.stderr)?.[1] ?? '';
    expect(id).toMatch(UUID);
    expect(f.em.messages(id).find((m) => m.role === 'assistant')?.message).toContain('codex');
    // /open handed the first session's page, and only that, to the browser.
    expect(spawner.opened).toHaveLength(1);
    expect(spawner.opened[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*[0-9a-f-]{36}/);
  });

  it('a follow-up that fails to send comes back to the input line, and Enter sends it again', async () => {
    const f = await fixture();
    const r = await f.run(['chat', '-a', 'claude'], {
      tty: TTY,
      idleStdin: true,
      onStart: session([
        waitFor('claude · new session'),
        type('first'),
        type('\r'),
        waitFor('done in'),
        () => Promise.resolve(f.em.setFaults({ rate: 1, modes: ['503'], methods: ['POST'] })),
        type('lost for a while'),
        type('\r'),
        waitFor('not sent:'),
        async (run) => {
          // The footer drawn after the warning shows the message back in the input line.
          const back = () => {
            const err = plain(run.stderr);
            return err.lastIndexOf('› lost for a while') > err.lastIndexOf('not sent:');
          };
          await until(back);
          f.em.setFaults(undefined);
        },
        type('\r'),
        waitFor('claude finished: "lost for a while". Done.'),
        type('\u0003'),
      ]),
    });
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(f.em.stats().followUps).toBe(1);
    // A 503 answer to a POST: the service may have taken it; it is not sent again without a person.
    expect(r.stderr).toContain('it may have reached the service: /show');
  });

  it('several lines arriving in one read (a paste without bracketed paste) are one message', async () => {
    const f = await fixture();
    const r = await f.run(['chat', '-a', 'claude'], {
      tty: TTY,
      idleStdin: true,
      onStart: session([
        waitFor('claude · new session'),
        type('one\rtwo\r\nthree'),
        type('\r'),
        waitFor('claude finished: "one two three". Done.'),
        type('\u0004'),
      ]),
    });
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    const id = /Session ([0-9a-f-]{36})/.exec(r.stderr)?.[1] ?? '';
    expect(f.em.messages(id)[0]?.message).toBe('one\ntwo\nthree');
  });

  it('the footer drawn with a final reply says the turn is done, not still running', async () => {
    const f = await fixture();
    // Each status line drawn on stderr after the final reply was written to stdout, in the order written.
    let finalShown = false;
    const after: string[] = [];
    const r = await f.run(['chat', '-a', 'claude'], {
      tty: TTY,
      idleStdin: true,
      onWrite: (to, text) => {
        if (to === 'out' && plain(text).includes('claude finished: "first". Done.')) finalShown = true;
        else if (to === 'err' && finalShown && plain(text).includes('claude · ')) after.push(plain(text));
      },
      onStart: session([
        waitFor('claude · new session'),
        type('first'),
        type('\r'),
        waitFor('done in'),
        type('\u0004'),
      ]),
    });
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    // The first footer under the reply is the turn's end: drawn before the status was updated, it showed the
    // turn still running with the last tool call.
    expect(after[0]).toMatch(/claude · done in/);
  });

  it('a turn that ends before the answer to its POST arrives is seen as ended', async () => {
    const f = await fixture();
    /** The status line drawn last says the turn is over. */
    const idle = (run: RunHandle) => {
      const err = plain(run.stderr);
      return err.startsWith('claude · done in', err.lastIndexOf('claude · '));
    };
    const r = await f.run(['chat', '-a', 'claude'], {
      tty: TTY,
      idleStdin: true,
      onStart: session([
        waitFor('claude · new session'),
        type('first'),
        type('\r'),
        waitFor('claude finished: "first". Done.'),
        // The service takes the follow-up at once and answers a second later: the poll sees the whole turn
        // before the chat knows the thread it started.
        () => Promise.resolve(f.em.setFaults({ rate: 1, modes: ['slow'], methods: ['POST'], slowMs: 1000 })),
        type('quick'),
        type('\r'),
        waitFor('claude finished: "quick". Done.'),
        async (run) => {
          await until(() => idle(run));
        },
        type('\u0004'),
      ]),
    });
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
  });

  it('SIGTERM ends it with 130 and the command that resumes', async () => {
    const f = await fixture();
    const r = await f.run(['chat', '-a', 'claude'], {
      tty: TTY,
      idleStdin: true,
      onStart: session([
        waitFor('claude · new session'),
        type('[[never]] a long one'),
        type('\r'),
        waitFor('✓ Created'),
        (run) => Promise.resolve(run.kill('SIGTERM')),
      ]),
    });
    expect(r.code).toBe(130);
    const id = /id {3}([0-9a-f-]{36})/.exec(r.stderr)?.[1] ?? '';
    expect(r.stderr).toContain(`error: interrupted\nhint: resume with: agents chat ${id}\n`);
  });

  it('Ctrl-D before anything was sent says so, and sends nothing', async () => {
    const f = await fixture();
    const r = await f.run(['chat', '-a', 'claude'], {
      tty: TTY,
      idleStdin: true,
      onStart: session([waitFor('claude · new session'), type('\u0004')]),
    });
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(r.stderr).toContain('No session was started.');
    expect(f.em.stats().requests).toBe(0);
  });
});

describe('agents chat on a session whose turn is still running', () => {
  it('shows it running, asks before the follow-up interrupts it, and rings the bell (--notify) when the new turn ends', async () => {
    const f = await fixture();
    expect((await f.run(['create', '-a', 'claude', '[[never]] [[steps:1]] long job'])).code).toBe(0);
    const r = await f.run(['chat', 'last', '--notify'], {
      tty: TTY,
      idleStdin: true,
      onStart: session([
        waitFor('claude is working on it (step 1).'),
        waitFor('long job · '),
        type('stop'),
        type('\r'),
        waitFor('Interrupt the running turn and send? [y/N]'),
        type('y'),
        waitFor('claude finished: "stop". Done.'),
        waitFor('done in'),
        type('\u0004'),
      ]),
    });
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(f.em.stats().followUps).toBe(1);
    expect(r.stderr).toContain('\u0007');
  });

  it('--yes sends without asking', async () => {
    const f = await fixture();
    expect((await f.run(['create', '-a', 'claude', '[[never]] long job'])).code).toBe(0);
    const r = await f.run(['chat', 'last', '--yes'], {
      tty: TTY,
      idleStdin: true,
      onStart: session([
        waitFor('long job · '),
        type('stop'),
        type('\r'),
        waitFor('claude finished: "stop". Done.'),
        type('\u0004'),
      ]),
    });
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(r.stderr).not.toContain('Interrupt the running turn');
    expect(r.stderr).not.toContain('\u0007');
  });
});

describe('one way of writing a time on a terminal', () => {
  it('chat stamps messages in local time, as show does on a terminal, never in ISO UTC', async () => {
    const f = await fixture({}, { TZ: 'Asia/Tokyo' });
    const r = await f.run(['chat', '-a', 'claude'], {
      tty: TTY,
      idleStdin: true,
      onStart: session([
        waitFor('claude · new session'),
        type('[[reply:the%20answer]] hello'),
        type('\r'),
        waitFor('the answer'),
        type('\u0004'),
      ]),
    });
    expect(r.code, r.stderr.slice(-500)).toBe(0);
    const text = plain(r.stdout + r.stderr);
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    // The label as show writes it: who, then the local clock time.
    expect(text).toMatch(/you · \d\d:\d\d/);
    // The session chat created is recorded with its agent, which show's header names.
    const shown = await f.run(['show', 'last', '--no-pager'], { tty: { stdout: true } });
    expect(plain(shown.stdout).split('\n')[1]).toMatch(/^claude · /);
  });
});

describe('the hint lines after a command', () => {
  it('are dimmed once each, not twice', async () => {
    const f = await fixture({}, { FORCE_COLOR: '1' });
    const r = await f.run(['create', '-a', 'claude', '[[never]] x'], { tty: { stdout: true, stderr: true } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Reply:');
    expect(r.stderr).not.toContain('\u001b[2m\u001b[2m');
    const reply = r.stderr.split('\n').find((l) => l.includes('Reply:')) ?? '';
    // eslint-disable-next-line no-control-regex -- the dim escape is what is counted
    expect(reply.match(/\u001b\[2m/g)).toHaveLength(1);
  });
});
