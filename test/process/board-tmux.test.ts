// `agents board` as a person uses it: the built binary in a tmux pane against the emulator, keys typed
// into it and the screen read back. What needs a real terminal: the alternate screen given back (the
// shell's text before it is there again), a resize redrawn, chat run from the board and back, and the
// pull request checked out in a clone. The keys' other work is tested in-process (test/main/cli/board.test.ts).
import { describe, expect, it } from 'vitest';
import { cliEnv } from '../support/run-cli.js';
import { runInTmux, type TmuxRun } from '../support/tmux-run.js';
import { KEY } from '../support/key.js';
import { missing, titled } from '../support/tools.js';
import { ownEmulator } from '../support/emulator.js';
import { runMain } from '../support/main.js';
import { GIT_ENV, git, gitFixture } from '../support/git-fixture.js';

const noTools = missing('tmux');

(noTools ? describe.skip : describe)(titled('agents board in a terminal', noTools), () => {
  it('draws the rows, redraws on resize, runs chat and comes back, checks the pull request out, and gives the screen back on q', async (test) => {
    const em = await ownEmulator({ turnMsPerRequest: 0 });
    const slot: { t?: TmuxRun } = {};
    test.onTestFinished(async () => {
      await Promise.all([em.close(), slot.t?.close()]);
    });
    const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...GIT_ENV });
    const made = await runMain(['create', '-a', 'claude', 'make the change'], { env });
    const id = made.stdout.trim();
    const repo = gitFixture();
    const head = repo.pushCommit(repo.main0, { 'app.txt': 'one\ntwo\n' }, 'refs/pull/7/head');
    em.addPullRequest(id, 'https://github.com/acme/app/pull/7');
    const clone = repo.clone();

    const t = (slot.t = await runInTmux(
      ['board'],
      env,
      { columns: 80, rows: 24 },
      `cd '${clone}' && echo before-the-board`,
    ));
    await t.waitFor(/● working +make the change/);
    await t.waitFor('#7');
    em.endTurns(id);
    await t.waitFor(/✓ finished +make the change/);

    // Narrower: the columns that do not fit go, every line still one line.
    await t.resize(50);
    let screen = await t.waitFor(/STATE +TITLE +AGENT +LAST +PR *\n/);
    expect(screen).not.toContain('LATEST');
    await t.resize(80);
    await t.waitFor(/STATE +TITLE +AGENT +LAST +PR +LATEST/);

    // Enter: chat on the session, then Ctrl-C on its empty line: the board again.
    await t.press('Enter');
    await t.waitFor('· /help');
    await t.press('C-c');
    await t.waitFor('agents board · default');

    // c: the pull request on a branch of the clone, then a key back to the board.
    await t.type('c');
    await t.waitFor('Press any key to return to the board.');
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(clone, 'branch', '--show-current')).toBe(`agents/${id.slice(0, 8)}-pr7`);
    await t.type('x');
    await t.waitFor('agents board · default');

    // q: the shell's screen as it was, the board gone.
    await t.type('q');
    expect(await t.exitCode()).toBe(0);
    screen = await t.screen({ joined: true });
    expect(screen).toContain('before-the-board');
    expect(screen).not.toContain('agents board · default');
  });
});
