// Issue 14 at a real terminal: the built binary in a pseudo-terminal (util-linux `script`), 80 and 40
// columns wide, with colour and without. Each combination: create --wait --notify (the spinner's
// activity, the reply as markdown, the bell and notification), show through the real `less -FRX` (q to
// leave it), ls, open where no browser can start, and the session chooser.
import { describe, expect, it } from 'vitest';
import { KEY, until } from '../support/fixture.js';
import { cliEnv, runCli } from '../support/run-cli.js';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInPty } from '../support/pty.js';
import { missing, titled } from '../support/tools.js';
import { ownEmulator } from '../support/emulator.js';

const noTools = missing('script', 'less');

// eslint-disable-next-line no-control-regex -- escape sequences are what is looked for
const COLOUR = /\u001b\[(?:\d+;)*3\dm/;
// eslint-disable-next-line no-control-regex
const CSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007|\u001b[=>]/g;
const UUID_ANY = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const MD = [
  '## Summary',
  '',
  'I fixed the **flaky** test in `parser.ts`, and the retry loop that hid it is bounded now.',
  '',
  '- the timer is *faked*',
  '- the loop stops after 3 tries',
  '',
  '```ts',
  'vi.useFakeTimers();',
  '```',
].join('\n');

/** The lines a person reads: escape sequences out, carriage returns as line ends. */
const lines = (screen: string) => screen.replace(CSI, '').split(/\r?\n|\r/);

// Each width once and each colour setting once: the two pairs left out cost four binaries each (a third of
// this tier's CPU went to this file); test/main/cli/terminal-view.test.ts renders in-process with colour and
// without, and cuts the status line to 40 columns.
(noTools ? describe.skip : describe.concurrent).each([
  [80, true],
  [40, false],
])(titled('a terminal %i columns wide, colour %s', noTools), (cols, colour) => {
  it('create --wait --notify, show in the pager, ls, open and the chooser', async ({ onTestFinished }) => {
    // An emulator of its own (the fixture's are closed after each test, and these run side by side).
    const em = await ownEmulator();
    onTestFinished(() => em.close());
    const env = {
      ...cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY }),
      ...(colour ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }),
      TERM_PROGRAM: 'iTerm.app',
      DISPLAY: '',
      TZ: 'UTC',
    };

    // The spinner says what the agent does; the reply is rendered; the end rings and notifies. The turn
    // never ends by itself: the test stores a tool call, and the final reply once the spinner showed it.
    const wait = runInPty(
      ['create', '-a', 'claude', '--wait', '--notify', '[[never]] [[steps:0]] Fix the flaky test'],
      env,
      cols,
    );
    await wait.waitFor('Waiting for claude');
    const created = /id {3}([0-9a-f-]{36})/.exec(wait.screen)![1]!;
    const thread = em.messages(created)[0]!.chat_thread_id!;
    const add = (type: 'tool_call' | 'final_message', message: string) =>
      em.addMessage(created, { chat_thread_id: thread, role: 'assistant', type, message });
    add('tool_call', JSON.stringify({ tool: 'Bash', input: 'npm test' }));
    await wait.waitFor(/Waiting for claude… \S+ · ⚙ Bash/);
    add('final_message', MD);
    expect(await wait.exit).toBe(0);
    const screen = wait.screen;
    expect(screen).toContain('\u0007\u001b]9;agents: claude replied: Fix the flaky test\u0007');
    expect(screen.includes('**') || screen.includes('```')).toBe(false);
    expect(lines(screen)).toContain('  vi.useFakeTimers();');
    expect(COLOUR.test(screen)).toBe(colour);
    // The rendered reply keeps to the width.
    const start = lines(screen).findIndex((l) => l.includes('Summary'));
    // (the heading's line also holds the spinner's frames, drawn over one another on a real screen)
    for (const l of lines(screen).slice(start + 1, start + 8))
      expect([...l].length).toBeLessThanOrEqual(cols);

    // show: taller than a 12-row screen, so less -FRX pages it; q leaves.
    const show = runInPty(['show', 'last', '--tools'], env, cols, 12);
    await show.waitFor('── turn 1 ──');
    await show.waitFor(/\n:|\(END\)/);
    show.type('q');
    expect(await show.exit).toBe(0);
    expect(show.screen).toContain('Fix the flaky test');
    expect(show.screen).toMatch(/claude · finished · created just now/);
    expect(show.screen.replace(CSI, '')).not.toMatch(UUID_ANY);

    // ls: the id is never cut, whatever the width.
    const ls = runInPty(['ls'], env, cols);
    expect(await ls.exit).toBe(0);
    const id = UUID_ANY.exec(ls.screen)?.[0];
    expect(id).toBeDefined();
    expect(lines(ls.screen)).toContain(
      `  ${id}${cols >= 80 ? '  claude · finished · created just now' : ''}`,
    );

    // open: no display here, so the address is printed.
    const open = runInPty(['open', 'last'], env, cols);
    expect(await open.exit).toBe(0);
    expect(open.screen).toContain(`/app/sessions/${id}`);
    expect(open.screen).toContain('No browser opened here (no display)');

    // The chooser: type to filter, Enter to pick.
    const pick = runInPty(['show', '--no-pager'], env, cols);
    await pick.waitFor('Session (type to search)');
    pick.type('flaky');
    await until(() => pick.screen.replace(CSI, '').includes('search): flaky'));
    pick.type('\r');
    expect(await pick.exit).toBe(0);
    expect(pick.screen).toContain('── turn 1 ──');
  });
});

describe('the built binary opens a browser', () => {
  it('through the bundled `open` package, which starts xdg-open with the address', async ({
    onTestFinished,
  }) => {
    const em = await ownEmulator();
    onTestFinished(() => em.close());
    // A stand-in xdg-open on PATH that notes what it was asked to open.
    const bin = mkdtempSync(join(tmpdir(), 'agents-xdg-'));
    const opened = join(bin, 'opened.txt');
    writeFileSync(
      join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s' "$1" > '${opened}.tmp' && mv '${opened}.tmp' '${opened}'\n`,
    );
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const env = {
      ...cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY }),
      DISPLAY: ':0',
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    };
    const created = await runCli(['create', '-a', 'claude', 'x'], { env, closeStdin: true });
    const id = created.stdout.trim();
    const r = await runCli(['open', id], { env, closeStdin: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout, r.stderr).toBe('');
    await until(() => existsSync(opened));
    expect(readFileSync(opened, 'utf8')).toBe(`${em.url}/app/sessions/${id}`);
  });
});
