// Errors that say what to do next (issue 46): an empty message from standard input, a quiet pipe feeding
// one, a session left out in a script, a value commander refused. (A quiet pipe as a person sees it, in a
// real terminal: test/process/stdin-notice-pty.test.ts; whose reply `wait` prints: wait.test.ts.)
import { describe, expect, it } from 'vitest';
import { fixture, until, UUID } from '../../support/fixture.js';
import { FAST_TUNING } from '../../support/main.js';

describe('an empty message from standard input', () => {
  it.each([
    ['create', '-a', 'claude'],
    ['send', '00000000-0000-4000-8000-000000000001'],
  ])('%s </dev/null: the error and how to give a message, exit 2, nothing sent', async (...args) => {
    const f = await fixture();
    const r = await f.run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: the message from standard input is empty\n' +
        'hint: give the message as arguments, with --file PATH, or pipe it in: echo "fix the tests" | agents …\n',
    );
    expect(f.em.stats().requests).toBe(0);
  });
});

describe('a quiet pipe on standard input, with a person at the terminal', () => {
  it('is named on stderr once it has kept them waiting, with how to end it; then the message is sent', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude'], {
      idleStdin: true,
      tty: { stderr: true, columns: 0 },
      tuning: { ...FAST_TUNING, stdinNoticeMs: 0 },
      onStart: (run) =>
        void until(() => run.stderr.includes('standard input')).then(() => run.stdin.end('hello')),
    });
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(UUID);
    expect(f.em.messages(id)[0]?.message).toBe('hello');
    expect(r.stderr).toContain(
      'Reading the message from standard input (end it with Ctrl-D, or give it as arguments)…\n',
    );
  });

  it('says nothing when stderr is no terminal (a script), however long it waits', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude'], {
      idleStdin: true,
      tuning: { ...FAST_TUNING, stdinNoticeMs: 0 },
      onStart: (run) => void setTimeout(() => run.stdin.end('hello'), 20),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('a session left out, in a script', () => {
  it('show: the usage error and a hint naming `last`', async () => {
    const f = await fixture();
    const r = await f.run(['show']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hint: .*"last"/m);
    expect(f.em.stats().requests).toBe(0);
  });
});

describe('a value commander refused', () => {
  it.each([
    [
      ['create', '-a', 'claude', '--wait', '--timeout', '-1m', 'hi'],
      "error: option '--timeout <duration>' argument '-1m' is invalid: expected a duration such as 90s, 20m, 1h or plain seconds (up to 7 days)\n",
    ],
    [
      ['create', '--agent', 'gpt', 'hi'],
      "error: option '-a, --agent <name>' argument 'gpt' is invalid: allowed choices are claude, codex, gemini, opencode, cursor, kimi, sisyphus\n",
    ],
  ])('%j: one sentence, the reason after a colon', async (args, line) => {
    const f = await fixture();
    const r = await f.run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(line);
  });
});
