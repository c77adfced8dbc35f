// `agents board` in-process against the emulator: main with streams that say they are terminals, keys
// written to stdin, each frame read back from stdout. Off a terminal it is `ls`. The real terminal (tmux:
// chat and back, checkout in a clone, resize) is test/process/board-tmux.test.ts.
import { describe, expect, it } from 'vitest';
import { fixture, until, type Fixture } from '../../support/fixture.js';
import { FAST_TUNING, RecordingSpawner, type RunHandle } from '../../support/main.js';

const TTY = { stdin: true, stdout: true, stderr: true, columns: 100, rows: 24 };

// eslint-disable-next-line no-control-regex -- colour is taken off to read the text
const plain = (text: string) => text.replace(/\u001b\[[\d;]*m/g, '');
/** The last frame the board drew: what follows its last cursor-home. */
const frame = (run: RunHandle) => plain(run.stdout.slice(run.stdout.lastIndexOf('\u001b[H')));
const type = (run: RunHandle, text: string) => run.stdin.write(text);
const onFrame = (run: RunHandle, probe: (f: string) => boolean) => until(() => probe(frame(run)));

async function create(f: Fixture, message: string, more: string[] = []): Promise<string> {
  const r = await f.run(['create', '-a', 'claude', ...more, message]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** Runs `steps` against the board; one that fails stops the run (SIGTERM: exit 130). */
function steps(f: (run: RunHandle) => Promise<void>): (run: RunHandle) => void {
  return (run) => void f(run).catch(() => run.kill('SIGTERM'));
}

describe('agents board off a terminal', () => {
  it('prints what agents ls prints, and with --json its JSON, asking the service nothing', async () => {
    const f = await fixture({ turnMsPerRequest: 0 });
    await create(f, 'first');
    await create(f, 'second');
    const before = f.em.stats().requests;
    for (const json of [[], ['--json']]) {
      const [board, ls] = [await f.run(['board', ...json]), await f.run(['ls', ...json])];
      expect(board.code, board.stderr).toBe(0);
      expect(board.stdout).toBe(ls.stdout);
      expect(board.stdout).toContain('second');
    }
    // At a terminal for output but not for keys: still ls.
    const half = await f.run(['board'], { tty: { stdout: true, stderr: true } });
    expect(half.stdout).toContain('second');
    expect(half.stdout).not.toContain('\u001b[?1049h');
    expect(f.em.stats().requests).toBe(before);
  });
});

describe('agents board at a terminal', () => {
  it('shows the rows, changes one when its turn ends, replies once, creates once, sends nothing empty, filters, and gives the screen back on q', async () => {
    const f = await fixture({ turnMsPerRequest: 0 });
    const a = await create(f, 'older task');
    const b = await create(f, 'newer task', ['--title', 'evil \u001b]0;pwned\u0007 title']);
    const r = await f.run(['board'], {
      tty: TTY,
      idleStdin: true,
      env: { ...f.env, NO_COLOR: '1' },
      onStart: steps(async (run) => {
        // Both rows, the newest first and selected, working; the title's escape never reaches the screen.
        await onFrame(run, (s) => /› ● working +evil +\]0;pwned title[\s\S]*● working +older task/.test(s));
        f.em.endTurns(b);
        await onFrame(run, (s) => /› ✓ finished +evil/.test(s) && s.includes('claude finished'));
        expect(frame(run)).toMatch(/● working +older task/);
        // An empty reply sends nothing.
        type(run, 'r\r');
        await onFrame(run, (s) => s.includes('nothing sent: the reply was empty'));
        // A reply: one follow-up, and the row working again.
        type(run, 'rand this too\r');
        await onFrame(run, (s) => s.includes('sent a follow-up'));
        expect(f.em.stats().followUps).toBe(1);
        await onFrame(run, (s) => /› ● working +evil/.test(s));
        // An empty prompt creates nothing; a prompt and an agent create one session, selected.
        type(run, 'n\r');
        await onFrame(run, (s) => s.includes('nothing sent: the prompt was empty'));
        type(run, 'nbrand new work\r');
        await onFrame(run, (s) => s.includes('agent (claude'));
        type(run, 'codex\r');
        await onFrame(
          run,
          (s) => s.includes('created session') && /› ● working +brand new work +codex/.test(s),
        );
        expect(f.em.stats().sessionsCreated).toBe(3);
        // The filter: one row left.
        type(run, '/older\r');
        await onFrame(
          run,
          (s) => s.includes('1 sessions') && s.includes('older task') && !s.includes('brand'),
        );
        type(run, 'q');
      }),
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(f.em.stats().followUps).toBe(1);
    expect(f.em.stats().sessionsCreated).toBe(3);
    expect(
      f.em
        .messages(b)
        .filter((m) => m.role === 'user')
        .map((m) => m.message),
    ).toEqual(['newer task', 'and this too']);
    expect(f.em.messages(a).filter((m) => m.role === 'user')).toHaveLength(1);
    // The alternate screen taken at the start and given back at the end; NO_COLOR: no colour at all.
    expect(r.stdout.startsWith('\u001b[?1049h')).toBe(true);
    expect(r.stdout.endsWith('\u001b[?25h\u001b[?1049l')).toBe(true);
    // eslint-disable-next-line no-control-regex -- colour is what must not be there
    expect(r.stdout).not.toMatch(/\u001b\[[\d;]*m/);
    expect(r.stdout).not.toContain('\u001b]0;pwned');
  });

  it('s shows the session, o opens it in the browser, t follows it until q, Enter chats until Ctrl-D, each back to the board', async () => {
    const f = await fixture({ turnMsPerRequest: 0 });
    const id = await create(f, 'the one task');
    const spawner = new RecordingSpawner();
    const r = await f.run(['board'], {
      tty: TTY,
      idleStdin: true,
      env: { ...f.env, DISPLAY: ':0' },
      spawner,
      onStart: steps(async (run) => {
        await onFrame(run, (s) => s.includes('● working') && s.includes('the one task'));
        const back = async () => {
          const n = run.stdout.split('\u001b[?1049h').length;
          await until(() => run.stdout.split('\u001b[?1049h').length > n);
        };
        // s: the conversation on the ordinary screen, then a key back.
        type(run, 's');
        await until(() => run.stderr.includes('Press any key to return to the board.'));
        expect(plain(run.stdout)).toContain('── turn 1 ──');
        const s = back();
        type(run, 'x');
        await s;
        // o: the browser, from the board.
        type(run, 'o');
        await onFrame(run, (s) => s.includes('in your browser'));
        expect(spawner.opened).toEqual([expect.stringContaining(id)]);
        // t: the tail, until q.
        type(run, 't');
        await until(() => run.stderr.includes('q returns to the board'));
        const t = back();
        type(run, 'q');
        await t;
        // Enter: chat on the session; Ctrl-D on its empty line comes back.
        type(run, '\r');
        await until(() => plain(run.stderr + run.stdout).includes('· /help'));
        const c = back();
        type(run, '\u0004');
        await c;
        await onFrame(run, (s) => s.includes('the one task'));
        type(run, 'q');
      }),
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(f.em.stats().followUps).toBe(0);
  });

  it('--notify rings when a session finishes while another is selected, and not for the one selected', async () => {
    const f = await fixture({ turnMsPerRequest: 0 });
    const a = await create(f, 'in the background');
    const b = await create(f, 'the selected one');
    const r = await f.run(['board', '--notify'], {
      tty: TTY,
      idleStdin: true,
      onStart: steps(async (run) => {
        await onFrame(run, (s) => /› ● working +the selected one[\s\S]*● working +in the background/.test(s));
        f.em.endTurns(b);
        await onFrame(run, (s) => /› ✓ finished +the selected one/.test(s));
        expect(run.stderr).not.toContain('\u0007');
        f.em.endTurns(a);
        await until(() => run.stderr.includes('\u0007'));
        type(run, 'q');
      }),
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr.split('\u0007')).toHaveLength(2);
  });

  it('keeps to its part of the budget while ten sessions work: no 429, and a wait beside it on the key gets its reply', async () => {
    const pacing = { limit: 100, windowMs: 1000 };
    const f = await fixture({ turnMsPerRequest: 0, rateLimit: pacing });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await create(f, `task ${i}`));
    f.em.resetStats();
    const tuning = { ...FAST_TUNING, pacing };
    let waited: Promise<{ code: number | null }> | undefined;
    const r = await f.run(['board'], {
      tty: TTY,
      idleStdin: true,
      tuning,
      onStart: steps(async (run) => {
        // Every session looked at, then polled again and again.
        await until(() => f.em.stats().requests >= 60);
        waited = f.run(['wait', ids[9]!], { tuning });
        await until(() => (f.em.stats().byRoute['GET /sessions/:id/threads/:tid/messages'] ?? 0) > 0);
        const before = f.em.stats().requests;
        await until(() => f.em.stats().requests >= before + 20);
        f.em.endTurns(ids[9]);
        await waited;
        await onFrame(run, (s) => /✓ finished +task 9/.test(s));
        type(run, 'q');
      }),
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect((await waited)?.code).toBe(0);
    expect(f.em.stats().rejected429).toBe(0);
  });
});
