// `agents wait` end to end (in-process, against the emulator): many sessions in one process, from
// arguments or standard input, each reply printed once as it lands; 404, 124 and success at once; files
// per reply; the terminal's headers and status lines.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/api/types.js';
import { DIALECTS, fixture, stopWhen, until, UUID, type Fixture } from '../../support/fixture.js';
import { width as displayWidth } from '../../../src/util/width.js';
import type { RunHandle } from '../../support/main.js';

const MISSING = '00000000-0000-4000-8000-000000000404';

async function create(f: Fixture, message: string): Promise<string> {
  const r = await f.run(['create', '-a', 'claude', message]);
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

/** The thread of the session's latest turn, as the emulator stored it. */
function latestThread(f: Fixture, id: string): string {
  return (
    f.em
      .messages(id)
      .filter((m) => m.role === 'user')
      .at(-1)?.chat_thread_id ?? ''
  );
}

/**
 * For `onStart`: once `printed` is on stdout, the never-ending turn of `session` ends with the final
 * `reply`. Replies then land in the order a test names, whatever the machine's load.
 */
function endTurnAfter(f: Fixture, session: string, printed: string, reply: string) {
  return (run: RunHandle) =>
    void until(() => run.stdout.includes(printed)).then(() =>
      f.em.addMessage(session, {
        chat_thread_id: latestThread(f, session),
        role: 'assistant',
        type: 'final_message',
        message: reply,
      }),
    );
}

// eslint-disable-next-line no-control-regex -- escape sequences are what is stripped
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]/g;

// Against both dialects: the live service's copy of each final reply, and its ordering, must not change
// which reply is printed.
describe.each(DIALECTS)('agents wait against the %s dialect', (dialect) => {
  it('waits on several sessions in one process, printing each reply as it lands', async () => {
    const f = await fixture({ dialect });
    // The slow turn ends only once the quick reply is out.
    const slow = await create(f, '[[never]] a');
    const quick = await create(f, '[[turn:200]] [[reply:quick]] b');
    const writes: string[] = [];
    const r = await f.run(['wait', slow, quick], {
      onStart: endTurnAfter(f, slow, 'quick\n', 'slow'),
      onWrite: (to, text) => writes.push(`${to} ${text}`),
    });
    expect(r.code).toBe(0);
    // Piped: each reply followed by a newline, in the order they landed; whose each is, on stderr.
    expect(r.stdout).toBe('quick\nslow\n');
    const [quickThread, slowThread] = [latestThread(f, quick), latestThread(f, slow)];
    expect(r.stderr).toBe(`reply of ${quick}/${quickThread}:\nreply of ${slow}/${slowThread}:\n`);
    // Each label comes just before its reply.
    expect(writes).toEqual([
      `err reply of ${quick}/${quickThread}:\n`,
      'out quick\n',
      `err reply of ${slow}/${slowThread}:\n`,
      'out slow\n',
    ]);
  });

  it('404, 124 and success at once: the reply printed, the 404 reported, 124 naming what is pending', async () => {
    const f = await fixture({ dialect });
    const ok = await create(f, '[[reply:done%20here]] ok');
    const never = await create(f, '[[never]] forever');
    const r = await f.run(['wait', ok, MISSING, never, '--timeout', '0.5s']);
    expect(r.code).toBe(124);
    expect(r.stdout).toBe('done here\n');
    // Whose the one reply is, then the errors (the label's place among them is the machine's timing).
    const label = `reply of ${ok}/${latestThread(f, ok)}:`;
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l === label)).toHaveLength(1);
    expect(lines.filter((l) => l !== label)).toEqual([
      `error: session ${MISSING}: not found (HTTP 404 NOT_FOUND): Session not found`,
      'hint: check the session id; sessions of another workspace are reported as not found',
      'error: timed out after 500ms with 1 of 3 replies outstanding',
      `hint: the sessions go on; resume with: agents wait ${never}/${latestThread(f, never)}`,
    ]);
  });

  it('without a time-out: the first permanent error’s code, once the others are done', async () => {
    const f = await fixture({ dialect });
    const late = await create(f, '[[turn:3000]] [[reply:late]] x');
    const r = await f.run(['wait', MISSING, late]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('late\n');
    expect(r.stderr).toMatch(new RegExp(`^error: session ${MISSING}: not found`));
  });

  it('reads what create and send print on standard input, one per line, as they come', async () => {
    const f = await fixture({ dialect });
    const a = await create(f, '[[reply:first]] a');
    const b = await create(f, '[[reply:old]] b');
    const sent = await f.run(['send', b, '[[reply:second]] again']);
    const ref = sent.stdout.trim();
    expect(ref).toMatch(new RegExp(`^${b}/[0-9a-f-]{36}$`));
    const r = await f.run(['wait'], { input: `${a}\n\n  ${ref}  \r\n` });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').sort()).toEqual(['', 'first', 'second']);
  });

  it('a bad line on standard input is a usage error (2) at the end; the others are still waited on', async () => {
    const f = await fixture({ dialect });
    const a = await create(f, '[[reply:fine]] a');
    const r = await f.run(['wait'], { input: `not-a-session\n${a}\n` });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('fine\n');
    expect(r.stderr).toBe(
      'error: standard input, line 1: not a session or thread: "not-a-session"\n' +
        'hint: give a session id, its address, "last", or <session>/<thread> as `agents send` prints it\n',
    );
  });

  it('a bad argument is a usage error before anything is sent; no references at all too', async () => {
    const f = await fixture({ dialect });
    const bad = await f.run(['wait', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: not a session or thread: "nope"/);
    const empty = await f.run(['wait'], { input: '\n\n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^error: nothing to wait on/);
    const tty = await f.run(['wait'], { tty: { stdin: true }, idleStdin: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/^error: give the sessions to wait on/);
    expect(f.em.stats().requests).toBe(0);
  });

  it('--json: one {session, thread, message} per line', async () => {
    const f = await fixture({ dialect });
    const a = await create(f, '[[reply:one]] a');
    const b = await create(f, '[[never]] b');
    const r = await f.run(['wait', '--json', a, b], { onStart: endTurnAfter(f, b, '"one"', 'two') });
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { session: string; thread: string; message: Message });
    expect(lines.map((l) => [l.session, l.thread, l.message.message, l.message.type])).toEqual([
      [a, latestThread(f, a), 'one', 'final_message'],
      [b, latestThread(f, b), 'two', 'final_message'],
    ]);
  });

  it('a session alone: its latest turn (the last one when it has ended, else the one in progress)', async () => {
    const f = await fixture({ dialect });
    const id = await create(f, '[[reply:turn%20one]] a');
    const first = await f.run(['wait', id]);
    expect(first.stdout).toBe('turn one\n');
    await f.run(['send', id, '[[turn:4000]] [[reply:turn%20two]] b']);
    const second = await f.run(['wait', 'last']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('turn two\n');
  });

  it('the same turn named twice (its session and <session>/<thread>) is waited on and printed once', async () => {
    const f = await fixture({ dialect });
    const id = await create(f, '[[turn:2000]] [[reply:once]] a');
    const r = await f.run(['wait', id, `${id}/${latestThread(f, id)}`, id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('once\n');
  });

  it('--output-dir: DIR/<session>.md, exact bytes; DIR/<session>-<thread>.md for several threads of one', async () => {
    const f = await fixture({ dialect });
    const dir = join(mkdtempSync(join(tmpdir(), 'agents-wait-')), 'replies', 'new');
    const a = await create(f, '[[reply:exact%0A%0Abytes]] a');
    const b = await create(f, '[[reply:b%20one]] b');
    const t1 = latestThread(f, b);
    // The first turn ends before the follow-up, which would otherwise cut it short.
    expect((await f.run(['wait', b])).stdout).toBe('b one\n');
    const sent = await f.run(['send', b, '[[reply:b%20two]] again']);
    const t2 = sent.stdout.trim().split('/')[1] ?? '';
    const r = await f.run(['wait', '--output-dir', dir, a, `${b}/${t1}`, `${b}/${t2}`]);
    expect(r.code).toBe(0);
    // stdout as without --output-dir.
    expect(r.stdout.split('\n').sort()).toEqual(['', '', 'b one', 'b two', 'bytes', 'exact']);
    expect(readdirSync(dir).sort()).toEqual([`${a}.md`, `${b}-${t1}.md`, `${b}-${t2}.md`].sort());
    expect(readFileSync(join(dir, `${a}.md`), 'utf8')).toBe('exact\n\nbytes');
    expect(readFileSync(join(dir, `${b}-${t2}.md`), 'utf8')).toBe('b two');
  });

  it('--output-dir that cannot be a directory: usage error, nothing sent', async () => {
    const f = await fixture({ dialect });
    const file = join(mkdtempSync(join(tmpdir(), 'agents-wait-')), 'a-file');
    writeFileSync(file, 'x');
    const r = await f.run(['wait', '--output-dir', file, MISSING]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --output-dir needs a directory/);
    expect(f.em.stats().requests).toBe(0);
  });

  it('Ctrl-C: 130, naming the pending ones and the command that resumes them', async () => {
    const f = await fixture({ dialect });
    const never = await create(f, '[[never]] a');
    const thread = latestThread(f, never);
    const r = await f.run(['wait', never], {
      onStart: stopWhen(
        () => (f.em.stats().byRoute['GET /sessions/:id/threads/:tid/messages'] ?? 0) >= 2,
        'SIGINT',
      ),
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(
      'error: interrupted with 1 of 1 reply outstanding\n' +
        `hint: the sessions go on; resume with: agents wait ${never}/${thread}\n`,
    );
  });

  it('on a terminal: a header naming each session, and one status line per session that never wraps at 40 columns', async () => {
    const f = await fixture({ dialect });
    const a = await create(f, '[[never]] Fix the failing parser test in the tokenizer module');
    const b = await create(f, '[[turn:200]] [[reply:beta%0A]] b');
    const r = await f.run(['wait', a, b], {
      tty: { stdout: true, stderr: true, columns: 40 },
      onStart: endTurnAfter(f, a, 'beta', 'alpha'),
    });
    expect(r.code).toBe(0);
    // stdout: header, then the reply (neutralised, one newline), in landing order.
    const out = r.stdout.replace(ESCAPES, '').split('\n');
    // 40 columns leave no room for a title beside the whole id.
    expect(out[0]).toBe(`── ${b}`);
    expect(out[1]).toBe('beta');
    expect(out[2]).toBe(`── ${a}`);
    expect(out[3]).toBe('alpha');
    // stderr: the status lines, redrawn in place; none wider than 39 columns, and gone at the end.
    const drawn = r.stderr
      // eslint-disable-next-line no-control-regex -- the redraw's escape sequences are what is split on
      .split(/\u001b\[\d+A\u001b\[J|\r/)
      .flatMap((chunk) => chunk.replace(ESCAPES, '').split('\n'));
    const lines = drawn.filter((l) => l !== '');
    expect(lines.some((l) => /^· .* · claude · waiting \d+(ms|s)$/.test(l))).toBe(true);
    expect(lines.some((l) => /^✓ .* · claude · done \d+(ms|s)$/.test(l))).toBe(true);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(39);
    expect(r.stderr.endsWith('\u001b[J')).toBe(true);
  });
});

describe('references with a thread elsewhere', () => {
  it('--thread takes <session>/<thread>; a session part that is not <session> is a usage error', async () => {
    const f = await fixture();
    const id = await create(f, '[[reply:x]] a');
    const thread = latestThread(f, id);
    const ok = await f.run(['show', id, '--thread', `${id}/${thread}`, '--json']);
    expect(ok.code).toBe(0);
    const other = await create(f, 'b');
    const bad = await f.run(['show', other, '--thread', `${id}/${thread}`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/names another session/);
    // `last` is the other session now: it must be the one the thread reference names.
    const last = await f.run(['tail', 'last', '--thread', `${id}/${thread}`, '-n', '1']);
    expect(last.code).toBe(2);
    expect(last.stderr).toMatch(new RegExp(`"last" is session ${other}, not ${id}`));
  });
});

describe('--timeout bounds the whole command, the POST included', () => {
  const SLOW_POST = {
    faults: { rate: 1, modes: ['slow' as const], methods: ['POST' as const], slowMs: 60_000 },
  };

  it('create --wait --timeout against a service that never answers the POST: 124 at the deadline, how to check', async () => {
    const f = await fixture(SLOW_POST);
    const r = await f.run(['create', '-a', 'claude', '--wait', '--timeout', '0.5s', 'x']);
    expect(r.code).toBe(124);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: timed out after 500ms before the service answered; the session may have been created\n' +
        'hint: it was not sent again, to avoid a duplicate; look for it in the dashboard before creating it again\n',
    );
    expect(f.em.stats().sessionsCreated).toBe(1);
  });

  it('send --wait --timeout likewise, naming the session to check', async () => {
    const f = await fixture();
    const id = await create(f, 'a');
    f.em.setFaults(SLOW_POST.faults);
    const r = await f.run(['send', id, '--wait', '--timeout', '0.5s', 'again']);
    expect(r.code).toBe(124);
    expect(r.stderr).toBe(
      'error: timed out after 500ms before the service answered; the message may have been created\n' +
        `hint: it was not sent again, to avoid a duplicate; check with: agents show ${id}\n`,
    );
  });
});

describe('the shared budget, as a run uses it', () => {
  const PACED = { pacing: { limit: 100, windowMs: 60_000 } };

  it('a run paces through <state dir>/pacing; AGENTS_SHARED_PACING=0 paces alone', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', 'x'], { tuning: PACED });
    expect(r.code).toBe(0);
    const dir = f.env.AGENTS_CONFIG_DIR ?? '';
    expect(readdirSync(join(dir, 'pacing'))).toHaveLength(1);
    const alone = await fixture({}, { AGENTS_SHARED_PACING: '0' });
    await alone.run(['create', '-a', 'claude', 'x'], { tuning: PACED });
    expect(readdirSync(alone.env.AGENTS_CONFIG_DIR ?? '')).not.toContain('pacing');
  });

  it('a corrupt budget file: repaired, one warning naming the copy kept, and the command works', async () => {
    const f = await fixture();
    await f.run(['create', '-a', 'claude', 'x'], { tuning: PACED });
    const dir = join(f.env.AGENTS_CONFIG_DIR ?? '', 'pacing');
    const [file = ''] = readdirSync(dir);
    writeFileSync(join(dir, file), 'garbage');
    const r = await f.run(['create', '-a', 'claude', '--wait', '[[steps:3]] y'], { tuning: PACED });
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /request budget file .* could not be used \(it is not JSON\): replaced it, the broken one kept at .*\.broken-/,
    );
    expect(readdirSync(dir).filter((f) => f.includes('.broken-'))).toHaveLength(1);
    expect(UUID.test(readFileSync(join(dir, file), 'utf8'))).toBe(false);
  });
});
