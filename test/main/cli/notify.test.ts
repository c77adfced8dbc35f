// The `notify` setting and --no-notify, through main(argv, io) against the emulator: a real program (a tiny
// node script that writes its standard input to a file) run without a shell with the turn's result, with
// and without a terminal; the setting alone turning it on; --no-notify overriding it; a missing, hanging
// and failing program each one warning, the exit code unchanged; tail --until-final taking --notify.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from '../../support/fixture.js';
import { FAST_TUNING } from '../../support/main.js';

/** A notify program: node running a script that writes its stdin to `out`, then exits as `mode` says. */
function notifier(mode: 'ok' | 'fail' | 'hang' = 'ok'): { argv: string[]; out: string; setting: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agents-notifier-'));
  const script = join(dir, 'notifier.mjs');
  const out = join(dir, 'got.json');
  writeFileSync(
    script,
    `import { writeFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  writeFileSync(process.argv[2], JSON.stringify({ args: process.argv.slice(3), input }));
  process.stdout.write('not for the run\\n');
  if (${JSON.stringify(mode)} === 'fail') { process.stderr.write('push service down\\n'); process.exit(3); }
  if (${JSON.stringify(mode)} === 'hang') setInterval(() => {}, 1000);
});
`,
  );
  const argv = [process.execPath, script, out, '--urgent', '$HOME; echo hi'];
  return { argv, out, setting: JSON.stringify(argv) };
}

/** What the program received: its arguments after the output file, and its stdin. */
function received(out: string): { args: string[]; input: string } {
  return JSON.parse(readFileSync(out, 'utf8')) as { args: string[]; input: string };
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));

describe('the notify setting: a program', () => {
  it('gets the turn result --json prints on its stdin, without a shell, with no terminal', async () => {
    const n = notifier();
    const f = await fixture({}, { AGENTS_NOTIFY: n.setting });
    const r = await f.run(['create', '-a', 'claude', '--wait', '--json', '[[reply:all done]] fix it']);
    expect(r.code).toBe(0);
    const got = received(n.out);
    // Arguments as given: no shell expanded or split them.
    expect(got.args).toEqual(['--urgent', '$HOME; echo hi']);
    expect(JSON.parse(got.input)).toEqual(JSON.parse(r.stdout));
    expect(JSON.parse(got.input)).toMatchObject({ final_message: 'all done', status: 'completed' });
    // Nothing of the notification on stdout: the program's own output goes nowhere.
    expect(r.stdout).not.toContain('not for the run');
    expect(warnings(r.stderr)).toEqual([]);
  });

  it('without --json, the same result; on a terminal, the program instead of the bell', async () => {
    const n = notifier();
    const f = await fixture({}, { AGENTS_NOTIFY: n.setting, TERM_PROGRAM: 'iTerm.app' });
    const r = await f.run(['create', '-a', 'claude', '--wait', '[[reply:all done]] fix it'], {
      tty: { stdout: true, stderr: true, columns: 0 },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(received(n.out).input)).toMatchObject({ final_message: 'all done' });
    expect(r.stderr).not.toContain('\u0007');
  });

  it('set in the profile (config set notify), it turns notifications on alone', async () => {
    const n = notifier();
    const f = await fixture();
    expect((await f.run(['config', 'set', 'notify', n.setting])).code).toBe(0);
    const got = await f.run(['config', 'get', 'notify']);
    expect(got.stdout.trim()).toBe(JSON.stringify(n.argv));
    const r = await f.run(['create', '-a', 'claude', '--wait', '[[reply:done]] go']);
    expect(r.code).toBe(0);
    expect(JSON.parse(received(n.out).input)).toMatchObject({ final_message: 'done' });
  });

  it('--no-notify turns it off for the run', async () => {
    const n = notifier();
    const f = await fixture({}, { AGENTS_NOTIFY: n.setting });
    const r = await f.run(['create', '-a', 'claude', '--wait', '--no-notify', '[[reply:done]] go']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('done');
    expect(existsSync(n.out)).toBe(false);
  });

  it('agents wait gives each reply, as its --json line', async () => {
    const n = notifier();
    const f = await fixture({}, { AGENTS_NOTIFY: n.setting });
    const id = (await f.run(['create', '-a', 'claude', '[[reply:waited]] go'])).stdout.trim();
    const r = await f.run(['wait', id, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(received(n.out).input)).toEqual(JSON.parse(r.stdout));
  });

  it('a missing, a failing and a hanging program: one warning each, the exit code unchanged', async () => {
    const f = await fixture({}, {});
    const missing = await f.run(['create', '-a', 'claude', '--wait', '[[reply:done]] go'], {
      env: { ...f.env, AGENTS_NOTIFY: '["/no/such/notifier-program"]' },
    });
    expect(missing.code).toBe(0);
    expect(missing.stdout).toBe('done');
    expect(warnings(missing.stderr)).toEqual([
      'warning: the notify program /no/such/notifier-program failed: it was not found',
    ]);

    const failing = notifier('fail');
    const failed = await f.run(['create', '-a', 'claude', '--wait', '--timeout', '1', '[[never]] stuck'], {
      env: { ...f.env, AGENTS_NOTIFY: failing.setting },
    });
    expect(failed.code).toBe(124);
    expect(warnings(failed.stderr)).toEqual([
      `warning: the notify program ${process.execPath} failed: it exited with 3: push service down`,
    ]);
    expect(JSON.parse(received(failing.out).input)).toMatchObject({ status: 'timed_out' });

    const hanging = notifier('hang');
    const hung = await f.run(['create', '-a', 'claude', '--wait', '[[reply:done]] go'], {
      env: { ...f.env, AGENTS_NOTIFY: hanging.setting },
      tuning: { ...FAST_TUNING, notifyTimeoutMs: 300 },
    });
    expect(hung.code).toBe(0);
    expect(hung.stdout).toBe('done');
    expect(warnings(hung.stderr)).toEqual([
      `warning: the notify program ${process.execPath} failed: it did not finish within 0.3 s and was stopped`,
    ]);
  });

  it('a bad value is a usage error where it is set', async () => {
    const f = await fixture();
    for (const bad of ['loud', '[]', '["ok", 3]', '[""]', '{"program": "x"}']) {
      const r = await f.run(['config', 'set', 'notify', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: notify /);
    }
  });
});

describe('the notify setting: terminal', () => {
  it('AGENTS_NOTIFY=terminal rings with no flag; --no-notify does not', async () => {
    const f = await fixture({}, { AGENTS_NOTIFY: 'terminal', TERM_PROGRAM: 'iTerm.app' });
    const tty = { tty: { stderr: true, columns: 0 } };
    const r = await f.run(['create', '-a', 'claude', '--wait', 'hello there'], tty);
    expect(r.stderr).toContain('\u0007\u001b]9;agents: claude replied: hello there\u0007');
    const off = await f.run(['create', '-a', 'claude', '--wait', '--no-notify', 'hello there'], tty);
    expect(off.code).toBe(0);
    expect(off.stderr).not.toContain('\u0007');
  });

  it('tail --until-final --notify rings when the turn ends; --notify alone is a usage error', async () => {
    const f = await fixture({}, { TERM: 'foot' });
    // The turn runs on: each request answered moves it on, so the tail sees it end.
    const id = (await f.run(['create', '-a', 'claude', '[[think:3000]] go'])).stdout.trim();
    const r = await f.run(['tail', id, '--until-final', '--notify'], { tty: { stderr: true, columns: 0 } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('\u0007\u001b]777;notify;agents;the agent replied');
    const bad = await f.run(['tail', id, '--notify']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --notify needs --until-final\n');
  });
});
