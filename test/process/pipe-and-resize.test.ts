// What a new user, a script and a CI job hit (issue 15) that only a process shows: a pipe closed by its
// reader, a real terminal resized under a spinner. The rest is in test/main/cli/new-user.test.ts.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../support/run-cli.js';
import { runInTmux } from '../support/tmux-run.js';
import { fixture } from '../support/fixture.js';
import { endTurn } from '../support/emulator.js';
import { missing, titled } from '../support/tools.js';

const noTmux = missing('tmux');

const scratch = () => mkdtempSync(join(tmpdir(), 'agents-new-user-'));

describe('a closed stdout ends the run at once, written to or not', () => {
  it('`tail | head -1` on a quiet session ends with 0 as soon as head exits', async () => {
    const f = await fixture();
    // Two messages at once, then nothing more for ever: tail prints the backlog, then only waits.
    const id = (await f.run(['create', '-a', 'claude', '[[steps:2]] [[never]] go'])).stdout.trim();
    endTurn(f.em, id);
    expect(f.em.messages(id)).toHaveLength(3);
    const out = await new Promise<string>((resolve, reject) => {
      const script = `'${process.execPath}' '${BIN}' tail ${id} 2>/dev/null | head -n 1 >/dev/null; echo "status \${PIPESTATUS[0]}"`;
      const child = spawn('bash', ['-c', script], { env: f.env, cwd: ROOT });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (text += c));
      // Without the fix tail waits for the next message, which never comes.
      const killer = setTimeout(() => child.kill('SIGKILL'), 90_000); // a hang guard only
      child.on('error', reject);
      child.on('close', () => {
        clearTimeout(killer);
        resolve(text);
      });
    });
    expect(out).toBe('status 0\n');
  });
});
describe.skipIf(noTmux)(titled('the spinner survives a resize', noTmux), () => {
  it('widening the terminal under a spinner erases none of the lines above it', async () => {
    // The turn is held until the terminal has been widened under the spinner.
    const f = await fixture({ turnMsPerRequest: 0 });
    const env = { ...f.env, XDG_CACHE_HOME: scratch(), NO_COLOR: '1' };
    // A narrow terminal, two lines of output, then a spinner whose text is wider than the terminal.
    const w = await runInTmux(
      ['create', '-a', 'claude', '--wait', 'go'],
      env,
      { columns: 40, rows: 12 },
      "printf 'first line\\nsecond line\\n'",
    );
    try {
      await w.waitFor(/Waiting for claude/);
      await w.resize(120);
      f.em.endTurns();
      const screen = await w.waitFor('claude finished');
      // Every line written before the spinner is still there: ours (the session card, whose lines wrapped
      // at 40 columns) and what the shell printed before.
      expect(screen).toMatch(/^ {2}web +http\S+\/sessions\/[0-9a-f-]{36}$/m);
      expect(screen).toContain('first line');
      expect(screen).toContain('second line');
      expect(await w.exitCode()).toBe(0);
    } finally {
      await w.close();
    }
  });
});
