// The terminal view of issue 14, in-process against the emulator: markdown and local times on a terminal
// (pipes byte for byte), show's compact header and pager, the spinner's activity, ls, open, the session
// chooser's script fallback, and --notify. What would be paged or opened is seen through a recording
// Spawner; the real pager, browser decision and chooser run in the pseudo-terminal suite.
import { describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message, Session } from '../../../src/core/api/types.js';
import { fixture, THREAD_POLL, stopWhen, until, type Fixture } from '../../support/fixture.js';
import { RecordingSpawner, type RunHandle } from '../../support/main.js';

const MD = [
  '## Summary',
  '',
  'I fixed the **flaky** test in `parser.ts`:',
  '',
  '- the timer is now *faked*',
  '- the retry loop is bounded',
  '',
  '```ts',
  'vi.useFakeTimers();',
  '```',
  '',
  'See [the PR](https://github.com/acme/app/pull/12).',
].join('\n');
const reply = (text: string) => `[[reply:${encodeURIComponent(text).replace(/\]/g, '%5D')}]]`;

// eslint-disable-next-line no-control-regex -- escape sequences are what is looked for
const SGR = /\u001b\[[0-9;]*m/g;
// eslint-disable-next-line no-control-regex
const CSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const UUID_ANY = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** The spinner's frames in what was written to stderr: ora draws each between cursor sequences. */
function frames(stderr: string): string[] {
  return stderr
    .split(CSI)
    .filter((p) => /^[⠀-⣿] Waiting for /.test(p))
    .map((p) => p.slice(2));
}

/** Both streams a terminal 80 by 40 (stdin not: no prompt). */
const TERMINAL = { tty: { stdout: true, stderr: true, columns: 80, rows: 40 } } as const;

async function session(f: Fixture, text: string): Promise<string> {
  const r = await f.run(['create', '-a', 'claude', '--wait', '--json', text]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Message).chat_id;
}

describe('replies as markdown', () => {
  it('a terminal gets it rendered; a pipe gets the text as sent, byte for byte', async () => {
    const f = await fixture();
    const piped = await f.run(['create', '-a', 'claude', '--wait', `${reply(MD)} go`]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(MD);

    const tty = await f.run(['create', '-a', 'claude', '--wait', `${reply(MD)} go`], {
      ...TERMINAL,
      env: { ...f.env, NO_COLOR: '1' },
    });
    expect(tty.code, tty.stderr).toBe(0);
    const out = tty.stdout;
    expect(out).toContain('## Summary');
    expect(out).toContain('I fixed the flaky test in parser.ts:');
    expect(out).toContain('  * the timer is now faked');
    expect(out).toContain('  vi.useFakeTimers();');
    expect(out).toContain('the PR (https://github.com/acme/app/pull/12)');
    expect(out).not.toContain('**');
    expect(out).not.toContain('```');
  });

  it('with colour: styled, and links are hyperlinks where the terminal shows them', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', '--wait', `${reply(MD)} go`], {
      ...TERMINAL,
      env: { ...f.env, FORCE_COLOR: '1', TERM_PROGRAM: 'iTerm.app' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(SGR);
    expect(r.stdout).toContain('\u001b]8;;https://github.com/acme/app/pull/12\u0007the PR\u001b]8;;\u0007');
    expect(r.stdout.replace(SGR, '')).not.toContain('**');
  });

  it('--follow and tail render each message on a terminal; piped they print the text as sent', async () => {
    const f = await fixture();
    const id = await session(f, `${reply(MD)} go`);
    const piped = await f.run(['tail', id, '-n', '5', '--until-final']);
    expect(piped.stdout).toContain(`${MD}\n`);
    const tty = await f.run(['tail', id, '-n', '5', '--until-final'], {
      ...TERMINAL,
      env: { ...f.env, NO_COLOR: '1' },
    });
    expect(tty.stdout).toContain('  * the retry loop is bounded');
    expect(tty.stdout).not.toContain('```');
    // Local clock times on a terminal, the service's ISO text on a pipe.
    expect(tty.stdout).toMatch(/assistant \(final\) · \d\d:\d\d\n/);
    expect(tty.stdout).not.toMatch(ISO);
    const follow = await f.run(['send', id, '--follow', `${reply(MD)} again`], {
      ...TERMINAL,
      env: { ...f.env, NO_COLOR: '1' },
    });
    expect(follow.stdout).toContain('  vi.useFakeTimers();');
    expect(follow.stdout).not.toContain('```');
  });

  it('a plan prints as markdown on a terminal, as stored on a pipe', async () => {
    const f = await fixture({ dialect: 'live' });
    const plan = '# Plan\n\n1. read **it**\n2. fix it\n';
    const id = await session(f, `[[plan:${encodeURIComponent(plan)}]] make a plan`);
    const piped = await f.run(['plan', id]);
    expect(piped.stdout).toBe(plan);
    const tty = await f.run(['plan', id], { ...TERMINAL, env: { ...f.env, NO_COLOR: '1' } });
    expect(tty.stdout).toContain('  1. read it');
    expect(tty.stdout).not.toContain('**');
  });
});

describe('show on a terminal', () => {
  it('a compact header and turns without raw ids; --verbose shows them', async () => {
    const f = await fixture({ dialect: 'live' });
    const id = await session(f, '[[pr:https://github.com/acme/app/pull/7]] [[reply:one]] first');
    await f.run(['send', id, '--wait', '[[reply:two]] second']);
    const users = f.em.messages(id).filter((m) => m.role === 'user');
    const threads = users.map((m) => m.chat_thread_id!);
    const r = await f.run(['show', id], { ...TERMINAL, env: { ...f.env, NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('first');
    // The agent is known from this machine's record; the latest turn has its final reply.
    expect(lines[1]).toMatch(/^claude · finished · created just now/);
    expect(lines[2]).toBe('PR https://github.com/acme/app/pull/7 open');
    expect(r.stdout).toContain('── turn 1 ──');
    expect(r.stdout).toContain('── turn 2 ──');
    expect(r.stdout).not.toMatch(UUID_ANY);
    expect(r.stdout).not.toMatch(ISO);

    const v = await f.run(['show', id, '--verbose'], { ...TERMINAL, env: { ...f.env, NO_COLOR: '1' } });
    expect(v.stdout).toContain(`id  ${id}`);
    expect(v.stdout).toContain(`── turn 2 · thread ${threads[1]} ──`);
    const final = f.em.messages(id).find((m) => m.type === 'final_message')!;
    expect(v.stdout).toContain(final.id);
  });

  it('a pipe gets the full header, thread ids and ISO times, exactly as before', async () => {
    const f = await fixture();
    const id = await session(f, '[[reply:**one**]] first');
    const r = await f.run(['show', id]);
    const doc = JSON.parse((await f.run(['show', id, '--json'])).stdout) as {
      session: Session;
      messages: Message[];
    };
    const s = doc.session;
    const user = doc.messages.find((m) => m.role === 'user')!;
    const final = doc.messages.find((m) => m.type === 'final_message')!;
    const between = doc.messages.filter((m) => m !== user && m !== final);
    const expected = [
      s.title,
      `  id             ${s.id}`,
      `  web            ${s.session_html_url}`,
      `  created        ${s.created_at}`,
      `  updated        ${s.updated_at}`,
      '  private        no',
      '  archived       no',
      '  pull requests  none',
      '',
      `── turn 1 · thread ${user.chat_thread_id} ──`,
      `you · ${user.created_at}`,
      user.message,
      ...between.flatMap((m) => [`assistant · ${m.created_at}`, m.message]),
      `assistant (final) · ${final.created_at}`,
      '**one**',
      '',
    ].join('\n');
    expect(r.stdout).toBe(expected);
  });

  it('goes through the pager when taller than the screen, with the notices; --no-pager and short ones do not', async () => {
    const f = await fixture({}, { AGENTS_PAGER: 'my-pager --x', TERM_PROGRAM: 'iTerm.app' });
    const id = await session(f, `[[steps:16]] [[notice:sandbox%20restarted]] ${reply(MD)} long one`);
    const spawner = new RecordingSpawner();
    const tall = { tty: { stdout: true, stderr: true, columns: 80, rows: 20 } };
    const r = await f.run(['show', id], { ...tall, spawner, env: { ...f.env, NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(spawner.paged).toHaveLength(1);
    const paged = spawner.paged[0]!;
    expect(paged.command).toBe('my-pager --x');
    expect(paged.env.LESS).toBe('FRX');
    expect(paged.text).toContain('── turn 1 ──');
    expect(paged.text).toContain('notice: sandbox restarted');
    expect(paged.text).toContain('  vi.useFakeTimers();');
    // No hyperlinks through a pager, though the terminal takes them: the address is written out.
    expect(paged.text).not.toContain('\u001b]8');
    expect(paged.text).toContain('(https://github.com/acme/app/pull/12)');

    const direct = await f.run(['show', id, '--no-pager'], {
      ...tall,
      spawner,
      env: { ...f.env, NO_COLOR: '1' },
    });
    expect(spawner.paged).toHaveLength(1);
    expect(direct.stdout).toContain('── turn 1 ──');
    expect(direct.stdout).toContain('\u001b]8;;https://github.com/acme/app/pull/12\u0007');
    expect(direct.stderr).toContain('notice: sandbox restarted');

    const roomy = await f.run(['show', id], {
      tty: { stdout: true, stderr: true, columns: 80, rows: 500 },
      spawner,
      env: { ...f.env, NO_COLOR: '1' },
    });
    expect(roomy.stdout).toContain('── turn 1 ──');
    const cat = await f.run(['show', id], { ...tall, spawner, env: { ...f.env, AGENTS_PAGER: 'cat' } });
    expect(cat.stdout).toContain('── turn 1 ──');
    const piped = await f.run(['show', id], { spawner });
    expect(piped.stdout).toContain(`thread `);
    expect(spawner.paged).toHaveLength(1);
  });

  it('a pager that is not there: the text is printed, with a warning', async () => {
    const f = await fixture({}, { AGENTS_PAGER: 'no-such-pager' });
    const id = await session(f, '[[steps:16]] long one');
    const spawner = new RecordingSpawner({ pagerExit: 127 });
    const r = await f.run(['show', id], {
      tty: { stdout: true, stderr: true, columns: 80, rows: 10 },
      spawner,
      env: { ...f.env, NO_COLOR: '1' },
    });
    expect(r.code).toBe(0);
    expect(spawner.paged).toHaveLength(1);
    expect(r.stdout).toContain('── turn 1 ──');
    expect(r.stderr).toContain('the pager "no-such-pager" was not found');
  });
});

describe('the spinner says what the agent is doing', () => {
  it('the latest tool call or message, cut to the width', async () => {
    const f = await fixture();
    // The turn stores nothing by itself: the test stores each message once the spinner has shown the last.
    const shown = (text: string) => (run: RunHandle) => frames(run.stderr).some((t) => t.includes(text));
    const r = await f.run(['create', '-a', 'claude', '--wait', '[[never]] [[steps:0]] go'], {
      tty: { stdout: true, stderr: true, columns: 40 },
      onStart: (run) => {
        void (async () => {
          await until(() => shown('Waiting for claude')(run));
          const id = /id {3}([0-9a-f-]{36})/.exec(run.stderr)![1]!;
          const thread = f.em.messages(id)[0]!.chat_thread_id!;
          const add = (type: 'tool_call' | 'message' | 'final_message', message: string) =>
            f.em.addMessage(id, { chat_thread_id: thread, role: 'assistant', type, message });
          add('tool_call', JSON.stringify({ tool: 'Bash', input: 'npm test' }));
          await until(() => shown('· ⚙ Bash npm')(run));
          add('message', 'Reading the parser first\nthen the tests');
          await until(() => shown('· Reading the')(run));
          add('final_message', 'done');
        })().catch(() => undefined);
      },
    });
    expect(r.code, r.stderr).toBe(0);
    const all = frames(r.stderr);
    expect(all.some((t) => /^Waiting for claude… \S+ · ⚙ Bash npm/.test(t))).toBe(true);
    // A message: its first line only.
    expect(all.some((t) => /^Waiting for claude… \S+ · Reading the/.test(t))).toBe(true);
    expect(all.some((t) => t.includes('then the tests'))).toBe(false);
    // The frame and a space come first: the text keeps to 37 columns.
    for (const t of all) expect([...t.trimEnd()].length).toBeLessThanOrEqual(37);
  });

  it('reading the activity costs no extra polls: a terminal polls as a pipe does', async () => {
    const f = await fixture();
    const script = '[[steps:12]] [[gap:2000]] go';
    const polls = async (tty: boolean) => {
      f.em.resetStats();
      const r = await f.run(['create', '-a', 'claude', '--wait', script], {
        tty: { stdout: tty, stderr: tty, columns: tty ? 80 : undefined },
      });
      expect(r.code).toBe(0);
      return f.em.stats().byRoute[THREAD_POLL] ?? 0;
    };
    const piped = await polls(false);
    const terminal = await polls(true);
    // Were each tool call and message taken as the turn moving, the gap would stay at its shortest and
    // a terminal would poll about three times as often.
    expect(terminal).toBeLessThanOrEqual(Math.ceil(piped * 1.4) + 3);
  });
});

describe('agents ls', () => {
  it('lists what this machine created or sent to, latest first: text, tab-separated, JSON', async () => {
    const f = await fixture();
    const a = await session(f, '[[reply:a]] first session');
    const b = (await f.run(['create', '-a', 'codex', 'second session'])).stdout.trim();
    await f.run(['send', a, 'again']);
    const piped = await f.run(['ls']);
    expect(piped.code).toBe(0);
    const rows = piped.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r[0])).toEqual([a, b]);
    expect(rows[0]).toEqual([a, 'first session', 'claude', 'working', expect.stringMatching(ISO)]);
    expect(rows[1]?.slice(1, 4)).toEqual(['second session', 'codex', 'working']);
    const json = JSON.parse((await f.run(['ls', '--json', '--limit', '1'])).stdout) as Record<
      string,
      unknown
    >[];
    expect(json).toEqual([
      expect.objectContaining({
        id: a,
        title: 'first session',
        agent: 'claude',
        // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest's matcher
        web_url: expect.any(String),
      }),
    ]);
    const tty = await f.run(['ls'], { ...TERMINAL, env: { ...f.env, NO_COLOR: '1' } });
    expect(tty.stdout).toContain(`first session\n  ${a}  claude · working · created just now`);
    // The state file keeps them, readable by its owner alone.
    const state = join(f.env.AGENTS_CONFIG_DIR!, 'state.json');
    expect(statSync(state).mode & 0o777).toBe(0o600);
  });

  it('a wait that ends records the session as finished', async () => {
    const f = await fixture();
    const id = await session(f, 'done soon');
    const rows = (await f.run(['ls'])).stdout.trim().split('\n');
    expect(rows[0]?.split('\t').slice(0, 4)).toEqual([id, 'done soon', 'claude', 'finished']);
  });

  it('--refresh asks the service about each (three requests), gone when it answers 404', async () => {
    const f = await fixture();
    const id = (await f.run(['create', '-a', 'claude', '[[think:300]] later'])).stdout.trim();
    const state = join(f.env.AGENTS_CONFIG_DIR!, 'state.json');
    const data = JSON.parse(readFileSync(state, 'utf8')) as { sessions: Record<string, unknown[]> };
    const lost = '0b5e8f3c-1d2a-4c3b-9e8f-7a6b5c4d3e2f';
    data.sessions.default!.push({ id: lost, title: 'from long ago', usedAt: '2026-01-01T00:00:00Z' });
    writeFileSync(state, JSON.stringify(data));
    f.em.endTurns(id); // the turn has ended by the time ls asks (the test says so; no wait for it)
    f.em.resetStats();
    const r = await f.run(['ls', '--refresh']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((x) => [x[0], x[3]])).toEqual([
      [id, 'finished'],
      [lost, 'gone'],
    ]);
    expect(f.em.stats().requests).toBe(4);
    // Kept for the next ls.
    expect((await f.run(['ls'])).stdout.split('\n')[0]?.split('\t')[3]).toBe('finished');
  });

  it('nothing recorded: a note on a terminal, nothing on a pipe; either way exit 0 and no request', async () => {
    const f = await fixture();
    const piped = await f.run(['ls']);
    expect([piped.code, piped.stdout]).toEqual([0, '']);
    const tty = await f.run(['ls'], TERMINAL);
    // Named with the service: sessions made against another base URL are not this one's.
    expect(tty.stderr).toContain(`No sessions recorded on ${f.em.url} for profile default yet.`);
    expect(f.em.stats().requests).toBe(0);
  });
});

describe('a session argument left out, in a script', () => {
  it.each(['send', 'show', 'tail', 'plan', 'open'])(
    '%s: the usage error and a hint naming `last`, exit 2, nothing sent',
    async (cmd) => {
      const f = await fixture();
      await f.run(['create', '-a', 'claude', 'one on record']);
      f.em.resetStats();
      const r = await f.run([cmd]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "error: missing required argument 'session'\n" +
          'hint: give a session id or address, or "last" for the latest session this machine used\n',
      );
      expect(r.stdout).toBe('');
      expect(f.em.stats().requests).toBe(0);
    },
  );
});

describe('agents open and show --web', () => {
  it('opens the dashboard address where a browser can start', async () => {
    const f = await fixture({}, { DISPLAY: ':0' });
    const id = (await f.run(['create', '-a', 'claude', 'x'])).stdout.trim();
    const spawner = new RecordingSpawner();
    f.em.resetStats();
    const r = await f.run(['open', id], { spawner, tty: { stderr: true } });
    expect(r.code).toBe(0);
    expect(spawner.opened).toEqual([`${f.em.url}/app/sessions/${id}`]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Opening ${f.em.url}/app/sessions/${id} in your browser.`);
    // The address was recorded when the session was created: no request.
    expect(f.em.stats().requests).toBe(0);
    const web = await f.run(['show', 'last', '--web'], { spawner });
    expect(web.code).toBe(0);
    expect(spawner.opened).toHaveLength(2);
    expect(f.em.stats().requests).toBe(0);
  });

  it('prints the address where no browser can start (CI, SSH, no display) or none starts', async () => {
    const f = await fixture();
    const id = (await f.run(['create', '-a', 'claude', 'x'])).stdout.trim();
    const url = `${f.em.url}/app/sessions/${id}`;
    const spawner = new RecordingSpawner();
    for (const env of [{ CI: 'true', DISPLAY: ':0' }, { SSH_TTY: '/dev/pts/1', DISPLAY: ':0' }, {}]) {
      const r = await f.run(['open', id], { spawner, env: { ...f.env, ...env } });
      expect(r.stdout).toBe(`${url}\n`);
    }
    expect(spawner.opened).toEqual([]);
    const failing = new RecordingSpawner({ browserError: new Error('spawn xdg-open ENOENT') });
    const r = await f.run(['open', id], { spawner: failing, env: { ...f.env, DISPLAY: ':0' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${url}\n`);
    expect(r.stderr).toContain('could not start a browser: spawn xdg-open ENOENT');
    const json = await f.run(['open', id, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ url, opened: false });
  });

  it('hands only a web address to the browser', async () => {
    const f = await fixture({}, { DISPLAY: ':0' });
    const id = (await f.run(['create', '-a', 'claude', 'x'])).stdout.trim();
    // What the state file says the address is (a file, with a line break in it).
    const state = join(f.env.AGENTS_CONFIG_DIR!, 'state.json');
    const data = JSON.parse(readFileSync(state, 'utf8')) as { sessions: Record<string, { web?: string }[]> };
    data.sessions.default![0]!.web = 'file:///etc/passwd\nx';
    writeFileSync(state, JSON.stringify(data));
    const spawner = new RecordingSpawner();
    const r = await f.run(['open', id], { spawner, tty: { stdout: true, stderr: true } });
    expect(spawner.opened).toEqual([]);
    expect(r.stdout).toBe('file:///etc/passwd\nx\n');
    expect(r.stderr).toContain('No browser opened here (not a web address)');
  });

  it('a session not recorded here: its address is asked of the service', async () => {
    const f = await fixture();
    const id = (await f.run(['create', '-a', 'claude', 'x'])).stdout.trim();
    const elsewhere = await fixture();
    const r = await elsewhere.run(['open', id], {
      env: { ...f.env, AGENTS_CONFIG_DIR: elsewhere.env.AGENTS_CONFIG_DIR },
    });
    expect(r.stdout.trim()).toBe(`${f.em.url}/app/sessions/${id}`);
    expect(f.em.stats().byRoute['GET /sessions/:id']).toBe(1);
    const missing = await f.run(['open', '0b5e8f3c-1d2a-4c3b-9e8f-7a6b5c4d3e2f']);
    expect(missing.code).toBe(4);
  });
});

describe('--notify', () => {
  // eslint-disable-next-line no-control-regex -- the bell and the escape are what is looked for
  const BELL_OSC9 = /\u0007\u001b\]9;agents: claude replied: hello there\u0007/;

  it('rings and notifies on the terminal when the reply lands; nothing on a pipe', async () => {
    const f = await fixture({}, { TERM_PROGRAM: 'iTerm.app' });
    const tty = await f.run(['create', '-a', 'claude', '--wait', '--notify', 'hello there'], {
      tty: { stdout: true, stderr: true, columns: 0 },
    });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(BELL_OSC9);
    const piped = await f.run(['create', '-a', 'claude', '--wait', '--notify', '[[reply:ok]] hello there']);
    expect(piped.stdout).toBe('ok');
    expect(piped.stderr).not.toContain('\u0007');
    // A follow-up: the agent and title this machine knows.
    const send = await f.run(['send', 'last', '--follow', '--notify', 'more'], {
      tty: { stderr: true, columns: 0 },
    });
    expect(send.stderr).toMatch(BELL_OSC9);
  });

  it('a wait that times out is announced; one the user stops is not', async () => {
    const f = await fixture({}, { TERM: 'foot' });
    const r = await f.run(
      ['create', '-a', 'claude', '--wait', '--notify', '--timeout', '1', '[[never]] stuck'],
      {
        tty: { stderr: true, columns: 0 },
      },
    );
    expect(r.code).toBe(124);
    expect(r.stderr).toContain('\u0007\u001b]777;notify;agents;timed out waiting for claude: stuck\u0007');
    const stopped = await f.run(['create', '-a', 'claude', '--wait', '--notify', '[[never]] stuck'], {
      tty: { stderr: true, columns: 0 },
      onStart: stopWhen(() => (f.em.stats().byRoute[THREAD_POLL] ?? 0) >= 2, 'SIGINT'),
    });
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).not.toContain('\u0007');
  });

  it('needs --wait or --follow', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', '--notify', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --notify needs --wait or --follow\n');
    expect(f.em.stats().requests).toBe(0);
  });
});
