// `agents chat` as a person uses it: the built binary in a tmux pane, keys typed into it, and the screen
// read back as it is drawn (capture-pane), against the emulator in both dialects. Each test is a whole
// conversation; they run side by side (each its own emulator, tmux server and config directory).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { cliEnv } from '../support/run-cli.js';
import { runMain } from '../support/main.js';
import { runInTmux, type TmuxRun } from '../support/tmux-run.js';
import { width } from '../../src/util/width.js';
import { KEY } from '../support/key.js';
import { missing, titled } from '../support/tools.js';
import { ownEmulator } from '../support/emulator.js';
import { until } from '../support/until.js';

const noTools = missing('tmux');

/**
 * An emulator and a tmux server for one test, both closed when it ends (tests run side by side). Its turns
 * are held: the test moves each on when the screen shows what it checks.
 */
async function setup(test: TestContext, options: EmulatorOptions = {}, extraEnv: NodeJS.ProcessEnv = {}) {
  const em = await ownEmulator({ turnMsPerRequest: 0, ...options });
  const slot: { em: RunningEmulator; tmux?: TmuxRun } = { em };
  test.onTestFinished(async () => {
    await Promise.all([em.close(), slot.tmux?.close()]);
  });
  const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...extraEnv });
  const start = async (args: string[], size = { columns: 80, rows: 24 }) =>
    (slot.tmux = await runInTmux(args, env, size));
  return { em, env, start };
}

/** The user messages the emulator stored, in order. */
function sent(em: RunningEmulator, sessionId: string): string[] {
  return em
    .messages(sessionId)
    .filter((m) => m.role === 'user')
    .map((m) => m.message);
}

/** Resolves once the `n`th prompt of the emulator's life (a create or a follow-up) has a turn held. */
function posted(em: RunningEmulator, n: number) {
  return until(() => {
    const { sessionsCreated, followUps } = em.stats();
    return sessionsCreated + followUps >= n && em.heldTurnEvents() > 0;
  });
}

const count = (text: string, part: string) => text.split(part).length - 1;
/**
 * The tool-call lines of the conversation. Not every '⚙ ' on the screen: the status line shows the latest
 * tool call too while the turn runs, and the final reply can be on the screen a moment before it says done.
 */
const toolLines = (screen: string) => screen.split('\n').filter((l) => l.startsWith('⚙ '));
const SESSION = /Session ([0-9a-f-]{36})/;
// eslint-disable-next-line no-control-regex -- escape sequences are what is looked for
const SGR = /\u001b\[[\d;]*m/;

(noTools ? describe.skip : describe.concurrent)(titled('agents chat in a terminal', noTools), () => {
  it('starts a session, shows a turn with its tool calls, asks before interrupting, sends a pasted and a continued message as one, keeps the reply, and leaves on Ctrl-C', async (test) => {
    const { em, start } = await setup(test);
    const t = await start(['chat', '-a', 'claude']);
    await t.waitFor('claude · new session');

    // A turn with four steps, two of them tool calls, moved on to its second step.
    await t.type('[[turn:30000]] [[steps:4]] fix the tests');
    await t.press('Enter');
    await t.waitFor('✓ Created');
    em.advanceTurns(12_000);
    // While it runs: the status line with the agent, the time and the latest activity.
    await t.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] claude · \d+s · [⚙✎]/);
    em.endTurns();
    let screen = await t.waitFor('claude finished: "fix the tests". Done.');
    expect(toolLines(screen)).toEqual(['⚙ Read  src/module-2.ts', '⚙ Bash  npm test -- --run step-4']);
    await t.waitFor('claude · done in');
    expect(await t.screen({ escapes: true })).toMatch(SGR);

    // Ctrl-C while typing clears the line; nothing of it is sent.
    await t.type('a draft never sent');
    await t.waitFor('› a draft never sent');
    await t.press('C-c');

    // A turn that never ends, then a follow-up: a paste with a line break, a continued line.
    await t.type('[[never]] [[steps:1]] long job');
    await t.press('Enter');
    await posted(em, 2);
    em.endTurns(); // its one step: a turn that never ends has no more
    // The step under this turn's message (the first turn's step 1 reads the same), and the turn running in
    // the status line: its post has been answered, so the next Enter asks to interrupt (while the post is
    // out, the status line says "sending…" and an Enter is turned away).
    await t.waitFor(/long job\n[\s\S]*claude is working on it \(step 1\)\./);
    await t.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] claude · [^·\n]+ · /);
    // The paste ends with a line break: bracketed, it is part of the text, not Enter.
    await t.paste('stop that\n');
    await t.type('and do this\\');
    await t.press('Enter');
    // The backslash became a line break (keys sent faster than anyone types could otherwise arrive in
    // one read with the Enter, which is how a paste without brackets looks).
    await t.waitFor(/ {2}and do this\n/);
    await t.type('last line');
    await t.press('Enter');
    await t.waitFor('Interrupt the running turn and send? [y/N]');
    // Not yet: any key but y keeps the message in the input line.
    await t.type('n');
    await t.waitFor('not sent; the agent carries on');
    expect(em.stats().followUps).toBe(1);
    await t.press('Enter');
    await t.waitFor('Interrupt the running turn and send? [y/N]');
    await t.type('y');
    await posted(em, 3);
    em.endTurns();
    screen = await t.waitFor('claude finished: "stop that and do this last line". Done.');
    const id = /id {3}([0-9a-f-]{36})/.exec(screen)?.[1] ?? '';
    expect(sent(em, id)).toEqual([
      '[[turn:30000]] [[steps:4]] fix the tests',
      '[[never]] [[steps:1]] long job',
      'stop that\nand do this\nlast line',
    ]);
    await t.waitFor(/claude · done in \d+m?s · \/help\s*\n› *\n/);

    // The last reply, to a file and to the clipboard.
    const dir = mkdtempSync(join(tmpdir(), 'agents-chat-'));
    await t.type(`/save ${join(dir, 'reply.md')}`);
    await t.press('Enter');
    await t.waitFor('wrote ');
    const reply = 'claude finished: "stop that and do this last line". Done.';
    expect(readFileSync(join(dir, 'reply.md'), 'utf8')).toBe(reply);
    await t.type('/copy');
    await t.press('Enter');
    await t.waitFor('sent the last reply to the clipboard');
    expect(await t.clipboard()).toBe(reply);

    // Ctrl-C on an empty line leaves, with the id and the commands that resume it.
    await t.press('C-c');
    expect(await t.exitCode()).toBe(0);
    screen = await t.screen({ joined: true });
    expect(screen).toContain(`agents chat ${id}`);
    expect(screen).toContain(`agents tail ${id}`);
    expect(SESSION.exec(screen)?.[1]).toBe(id);
    expect(sent(em, id).join('\n')).not.toContain('draft');
  });

  it('continues a live session at 40 columns without colour: the final once, notices apart, status and input lines intact; /plan; leaves on Ctrl-D', async (test) => {
    const { em, env, start } = await setup(test, { dialect: 'live' }, { NO_COLOR: '1' });
    const first = await runMain(['create', '-a', 'claude', '--wait', '[[steps:2]] first task'], {
      env,
      onStart: () => void posted(em, 1).then(() => em.endTurns()),
    });
    expect(first.code).toBe(0);
    const t = await start(['chat', 'last'], { columns: 40, rows: 30 });

    // The backlog: the earlier turn, its final once (the live service stores it twice), its notice. The
    // agent of a session is not known to the API: the status line names it by its title.
    let screen = await t.waitFor('first task · ready · /help');
    expect(count(screen, 'claude finished: "first task". Done.')).toBe(1);
    expect(count(screen, 'notice: ')).toBe(1);

    await t.type('[[turn:20000]] [[steps:3]] [[plan:%23%20The%20plan%0A-%20one%20step]] second task');
    await t.press('Enter');
    await posted(em, 2);
    em.advanceTurns(10_000); // two of its three steps
    // While the agent works, the status line fits the width and sits right above the input line.
    const running = await t.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] first task · \d+s ·/);
    const rows = running.trimEnd().split('\n');
    const status = rows.findLastIndex((r) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] first task/.test(r));
    expect(width(rows[status]!)).toBeLessThanOrEqual(39);
    expect(rows[status + 1]).toMatch(/^›/);
    em.endTurns();
    screen = await t.waitFor('claude finished: "second task". Done.');
    await t.waitFor(/first task · done in \d+m?s/);
    // The turn's notice lands with its final, and is drawn just after it (the screen can be read between).
    screen = await t.waitFor(/"second task"\. Done\.[\s\S]*notice: /);
    expect(count(screen, 'claude finished: "second task". Done.')).toBe(1);
    expect(count(screen, 'notice: ')).toBe(2);
    // Each tool call one line, cut to the width (a joined line longer than 40 would have wrapped).
    const tools = toolLines(screen);
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((l) => width(l) <= 40)).toBe(true);
    // Every line the chat drew is whole: no status line mixed into the conversation.
    expect(screen).not.toMatch(/.first task · (done|ready|\d+s)/);
    expect(count(screen, 'new session')).toBe(0);

    await t.type('/plan');
    await t.press('Enter');
    await t.waitFor('# The plan');

    await t.press('C-d');
    expect(await t.exitCode()).toBe(0);
    screen = await t.screen({ joined: true });
    const id = SESSION.exec(screen)?.[1];
    expect(id).toBeDefined();
    expect(screen).toContain(`agents chat ${id}`);
    expect(await t.screen({ escapes: true })).not.toMatch(SGR);
  });

  it('asks for the agent, then rides out a network outage mid-turn with a warning in the status line, and carries on', async (test) => {
    const { em, start } = await setup(test);
    // No agent given or configured: it is asked for first (claude is the first choice).
    const t = await start(['chat']);
    await t.waitFor('Agent:');
    await t.press('Enter');
    await t.waitFor('claude · new session');
    await t.type('[[turn:80000]] [[steps:1]] slow job');
    await t.press('Enter');
    await t.waitFor(/claude · \d+s · working/);
    em.setFaults({ rate: 1, modes: ['503'], methods: ['GET'] });
    // Said while the client rides the outage out inside one poll (a minute, since the service answered):
    // the bound is well under that minute, so a status line that waits for the poll to fail fails here.
    await t.waitFor(/claude · \d+s · ⚠/, 30_000);
    em.setFaults(undefined);
    em.endTurns();
    await t.waitFor('claude finished: "slow job". Done.', 30_000);
    await t.waitFor('claude · done in');
    // It carries on: a follow-up after the outage.
    await t.type('and then?');
    await t.press('Enter');
    await posted(em, 2);
    em.endTurns();
    await t.waitFor('claude finished: "and then?". Done.');
    await t.type('/quit');
    await t.press('Enter');
    expect(await t.exitCode()).toBe(0);
  });
});
