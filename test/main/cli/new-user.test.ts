// What a new user, a script and a CI job hit (issue 15), each case a test that fails without its fix.
// (A pipe closed by its reader and a terminal resized: test/process/pipe-and-resize.test.ts.)
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/api/types.js';
import { ROOT, cliEnv } from '../../support/run-cli.js';
import { runMain } from '../../support/main.js';
import { fixture, until } from '../../support/fixture.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'agents-new-user-'));

describe('`last` never names an older session', () => {
  it('a state file that cannot be written: create succeeds with a warning, and `last` is refused', async () => {
    const f = await fixture();
    const first = await f.run(['create', '-a', 'claude', 'first']);
    expect(first.code).toBe(0);
    // The state directory becomes unusable: a file where a directory should be (root cannot write there either).
    const blocked = join(scratch(), 'not-a-dir');
    writeFileSync(blocked, '');
    const env = { ...f.env, AGENTS_STATE_DIR: join(blocked, 'state') };
    const second = await runMain(['create', '-a', 'claude', 'second'], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(second.stderr).toMatch(
      /^warning: cannot write the state file .*not a directory; "last" cannot name this session/m,
    );
    f.em.resetStats();
    const send = await runMain(['send', 'last', 'to which session?'], { env });
    expect(send.code).toBe(2);
    expect(send.stderr).toMatch(/^error: "last" is not reliable/);
    expect(f.em.stats().followUps).toBe(0);
  });

  it('when recording fails in a usable directory, `last` is cleared rather than left on the older session', async () => {
    const f = await fixture();
    const dir = scratch();
    const env = { ...f.env, AGENTS_STATE_DIR: dir };
    const first = (await runMain(['create', '-a', 'claude', 'first'], { env })).stdout.trim();
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'))).toMatchObject({
      last: { default: { id: first } },
    });
    // Another process holds the state file's lock (fresh, so not stale) for longer than a writer waits.
    mkdirSync(join(dir, 'state.json.lock'));
    const second = await runMain(['create', '-a', 'claude', 'second'], {
      env,
      tuning: { pacing: false, lockWaitMs: 300 },
    });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/"last" cannot name this session and was cleared/);
    const send = await runMain(['send', 'last', 'hello?'], { env });
    expect(send.code).toBe(2);
    expect(send.stderr).toMatch(/no "last" session/);
  });

  it('on a terminal, `send last` says which session it posts to', async () => {
    const f = await fixture();
    const id = (await f.run(['create', '-a', 'claude', 'first'])).stdout.trim();
    const r = await f.run(['send', '-y', 'last', 'more'], { tty: { stderr: true, columns: 0 } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Sending to session ${id} (last)`);
  });
});

describe('stdout holds whole JSON or nothing; errors name what is wrong', () => {
  it('show --json --thread <unknown>: nothing on stdout, exit 4, the thread named', async () => {
    const f = await fixture();
    const id = (await f.run(['create', '-a', 'claude', '--wait', '--json', 'go'])).stdout;
    const session = (JSON.parse(id) as Message).chat_id;
    const thread = crypto.randomUUID();
    for (const args of [['--json'], []]) {
      const r = await f.run(['show', session, '--thread', thread, ...args]);
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^error: session ${session} has no thread ${thread}\\n`));
    }
  });
});

describe('turn numbers belong to the session', () => {
  it('show --thread and --limit keep the numbers; "the newest message" when there is one', async () => {
    const f = await fixture();
    const c = await f.run(['create', '-a', 'claude', '--wait', '--json', '[[reply:one]] q1']);
    const session = (JSON.parse(c.stdout) as Message).chat_id;
    const s = await f.run(['send', session, '--wait', '--json', '[[reply:two]] q2']);
    const thread = (JSON.parse(s.stdout) as Message).chat_thread_id ?? '';
    const only = await f.run(['show', session, '--thread', thread]);
    expect(only.stdout).toContain('turn 2');
    expect(only.stdout).not.toContain('turn 1');
    const newest = await f.run(['show', session, '--limit', '1']);
    expect(newest.stdout).toContain('turn 2');
    expect(newest.stdout).not.toContain('turn 1');
    expect(newest.stderr).toContain('Showing the newest message;');
  });
});

describe('every status the service sends has an error line and a hint that fit it', () => {
  it('a message over the service’s size limit (413)', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', '-'], { input: 'x'.repeat(3 * 1024 * 1024) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: the request is larger than the service accepts \(HTTP 413/);
    expect(r.stderr).toMatch(/\nhint: the message is over the service’s size limit/);
    expect(r.stderr).not.toMatch(/does not understand/);
  });
});

describe('file-system errors on config and state: one line naming the file', () => {
  it('a config directory under a file: config set says which file and why', async () => {
    const blocked = join(scratch(), 'file');
    writeFileSync(blocked, '');
    const r = await runMain(['config', 'set', 'agent', 'codex'], {
      env: cliEnv({ AGENTS_CONFIG_DIR: join(blocked, 'agents') }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: cannot write the config file .*config\.json: a part of its path is not a directory\nhint: /,
    );
    expect(r.stderr).not.toMatch(/ENOTDIR|at .*\.js/);
  });

  it('a config file that is a directory: reading it says which file and why', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'config.json'));
    const r = await runMain(['show', crypto.randomUUID()], { env: cliEnv({ AGENTS_CONFIG_DIR: dir }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot read the config file .*config\.json: it is a directory\n/);
  });
});

describe('an address nobody answers', () => {
  it('is reported in seconds, with the retries shown on a terminal', async () => {
    // A port that refuses: the one a server had just before it closed.
    const f = await fixture();
    const url = f.em.url;
    await f.em.close();
    const r = await runMain(['show', crypto.randomUUID()], {
      env: cliEnv({ AGENTS_BASE_URL: url, AGENTS_API_KEY: 'k-123456' }),
      tty: { stderr: true, columns: 0 },
      tuning: { pacing: false },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/connection refused/);
    // Each retry says how long it waits ("412ms", or whole seconds, rounded): together no more than the
    // 3 s an unreachable address is given, where a flaky read's budget is 90 s. (How many retries fit
    // depends on the jitter: 3 to 6.)
    const waits = [...r.stderr.matchAll(/retrying in (\d+)(ms|s)\b/g)].map(([, n, unit]) =>
      unit === 'ms' ? Number(n) : (Number(n) - 0.5) * 1000,
    );
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3000);
  });
});

describe('under CI a wait shows where it is and that it is alive', () => {
  it('a line with the session and its address when the wait starts, then heartbeats', async () => {
    // The turn is held until a heartbeat has been printed, then ended.
    const f = await fixture({ turnMsPerRequest: 0 }, { CI: 'true' });
    const r = await f.run(['create', '-a', 'claude', '--wait', 'go'], {
      tuning: { pacing: false, heartbeatMs: 300 },
      onStart: (run) => {
        void until(() => run.stderr.includes('still waiting')).then(() => f.em.endTurns());
      },
    });
    expect(r.code).toBe(0);
    const id = /on session ([0-9a-f-]{36})/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    expect(r.stderr).toMatch(
      new RegExp(`^Waiting for claude on session ${id} \\(\\S+/app/sessions/${id}\\)\\n`),
    );
    expect(r.stderr).toMatch(/\nstill waiting \(\d+m?s\)/);
    // --quiet silences it.
    const quiet = await f.run(['--quiet', 'create', '-a', 'claude', '--wait', 'go'], {
      onStart: () => void until(() => f.em.heldTurnEvents() > 0).then(() => f.em.endTurns()),
    });
    expect(quiet.stderr).toBe('');
  });
});

describe('the interface is documented here, and in every command’s help', () => {
  it('--help and the README point nowhere outside the package; global options in each command', async () => {
    const help = await runMain(['--help']);
    expect(help.stdout).not.toMatch(/cli-contract|\.\.\/shared/);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/\.\.\/shared|cli-contract\.md\]/);
    for (const cmd of ['create', 'send', 'show', 'tail', 'login', 'config']) {
      const r = await runMain([cmd, '--help']);
      expect(r.stdout, cmd).toMatch(/Global Options:[\s\S]*--profile <name>[\s\S]*--json[\s\S]*--quiet/);
    }
  });

  it('`agents logs` suggests tail; `agents help crate` is an unknown command', async () => {
    const logs = await runMain(['logs', 'x']);
    expect(logs.code).toBe(2);
    expect(logs.stderr).toBe("error: unknown command 'logs'\nhint: did you mean tail?\n");
    const help = await runMain(['help', 'crate']);
    expect(help.code).toBe(2);
    expect(help.stdout).toBe('');
    expect(help.stderr).toBe("error: unknown command 'crate'\nhint: did you mean create?\n");
    const good = await runMain(['help', 'show']);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^Usage: agents show/);
  });
});
