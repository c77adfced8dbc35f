// `agents emulator`: the flags-to-options mapping (pure) and the command run in-process. The built binary,
// stopped by real signals, is test/process/emulator-command.test.ts.
import { createServer } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { emulatorOptions, parseKeySpec, type EmulatorFlags } from '../../../src/cli/commands/emulator/run.js';
import { FAULT_MODES, MISBEHAVIOURS } from '../../../src/emulator/index.js';
import { UsageError } from '../../../src/core/errors/cli-error.js';
import { cliEnv } from '../../support/run-cli.js';
import { runMain } from '../../support/main.js';
import { until } from '../../support/until.js';

const base: EmulatorFlags = {
  port: 4010,
  host: '127.0.0.1',
  rateLimit: 100,
  timeScale: 1,
  dialect: 'spec',
};

describe('emulatorOptions', () => {
  it('defaults to the dev key and 100 requests per minute', () => {
    expect(emulatorOptions(base)).toEqual({
      port: 4010,
      host: '127.0.0.1',
      keys: [{ key: 'agents-dev-key', workspace: 'dev' }],
      rateLimit: { limit: 100, windowMs: 60_000 },
      timeScale: 1,
      dialect: 'spec',
    });
  });

  it('maps keys, forbidden keys, no rate limit and faults', () => {
    const o = emulatorOptions({
      ...base,
      key: ['a', 'b:team'],
      forbiddenKey: ['c:team'],
      rateLimit: 0,
      faultRate: 0.25,
      fault: ['503', 'reset'],
      faultSeed: 9,
    });
    expect(o.keys).toEqual([
      { key: 'a', workspace: 'dev' },
      { key: 'b', workspace: 'team' },
      { key: 'c', workspace: 'team', forbidden: true },
    ]);
    expect(o.rateLimit).toBe(false);
    expect(o.faults).toEqual({ rate: 0.25, modes: ['503', 'reset'], seed: 9, slowMs: undefined });
  });

  it('refuses --fault-rate without --fault (and the reverse) and a key given twice', () => {
    expect(() => emulatorOptions({ ...base, faultRate: 0.5 })).toThrow(UsageError);
    expect(() => emulatorOptions({ ...base, fault: ['503'] })).toThrow(UsageError);
    expect(() => emulatorOptions({ ...base, key: ['a'], forbiddenKey: ['a:x'] })).toThrow(UsageError);
  });

  it('splits KEY:WORKSPACE at the first colon', () => {
    expect(parseKeySpec('k:ws')).toEqual({ key: 'k', workspace: 'ws' });
    expect(parseKeySpec('k')).toEqual({ key: 'k', workspace: 'dev' });
  });
});

function env(): NodeJS.ProcessEnv {
  return cliEnv({ NO_COLOR: '1' });
}

/** `agents …args` in-process; a run that serves instead of refusing is stopped (and fails) after 10 s. */
function run(args: string[]) {
  return runMain(args, { env: env(), killAfterMs: 10_000 });
}

describe('agents emulator (in-process)', () => {
  it('reports a port in use in one line and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await run(['emulator', '--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(`error: port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it.each([
    ['--port', '70000'],
    ['--port', 'abc'],
    ['--port', '-1'],
    ['--rate-limit', '1.5'],
    ['--time-scale', 'fast'],
    ['--fault-rate', '2'],
    ['--fault', 'bogus'],
    ['--key', 'has space'],
  ])('refuses %s %s with exit 2 before serving', async (flag, value) => {
    const r = await run(['emulator', flag, value]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: /);
  });

  it('exits 2 for --fault-rate without --fault', async () => {
    const r = await run(['emulator', '--port', '0', '--fault-rate', '0.5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fault-rate and --fault go together');
  });

  it('offers every fault mode the emulator has in --help', async () => {
    const r = await run(['emulator', '--help']);
    expect(r.code).toBe(0);
    // The choices of --fault itself (other options list choices of their own).
    const listed =
      /--fault <mode\.\.\.> [^(]*\(choices: ([^)]*)\)/.exec(r.stdout.replace(/\s+/g, ' '))?.[1] ?? '';
    expect(listed.split(',').map((s) => s.trim().replace(/"/g, ''))).toEqual([...FAULT_MODES]);
  });

  it('offers every misbehaviour the emulator has in --help, and maps them to its options', async () => {
    const r = await run(['emulator', '--help']);
    const listed =
      /--misbehave <name\.\.\.> [^(]*\(choices: ([^)]*)\)/.exec(r.stdout.replace(/\s+/g, ' '))?.[1] ?? '';
    expect(listed.split(',').map((s) => s.trim().replace(/"/g, ''))).toEqual(Object.keys(MISBEHAVIOURS));
    const o = emulatorOptions({
      ...base,
      repeatedParams: 'last',
      misbehave: ['endless-pages', 'bad-ids-thread'],
    });
    expect(o.repeatedParams).toBe('last');
    expect(o.misbehave).toEqual({ endlessPages: true, badIds: 'thread' });
  });

  it('--help lists the directives, [[plan:TEXT]] as the live dialect’s alone', async () => {
    const r = await run(['emulator', '--help']);
    expect(r.stdout).toMatch(/^Directives in a message script the agent's turn/m);
    expect(r.stdout).toMatch(/^ {2}\[\[plan:TEXT\]\] +the turn writes a plan .*; live dialect only$/m);
    expect(r.stdout).toMatch(/^ {2}\[\[never\]\] +no final message/m);
  });

  it('a directive the dialect cannot honour is a warning on its stderr as the message arrives', async () => {
    let id = '';
    const r = await runMain(['emulator', '--port', '0', '--time-scale', '0'], {
      env: env(),
      killAfterMs: 10_000,
      onStart: (h) =>
        void until(() => /^http:\/\/\S+\n/.test(h.stdout)).then(async () => {
          const res = await request(`${h.stdout.split('\n')[0]}/rest/v1/sessions`, {
            method: 'POST',
            headers: { authorization: 'ApiKey agents-dev-key', 'content-type': 'application/json' },
            body: JSON.stringify({ agent_name: 'claude', message: '[[plan:%23%20Plan]] go' }),
          });
          id = ((await res.body.json()) as { id: string }).id;
          await until(() => h.stderr.includes('[[plan:'));
          h.kill('SIGINT');
        }),
    });
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain(
      `warning: session ${id}: [[plan:…]] does nothing in the spec dialect, which has no plans; run the emulator with --dialect live\n`,
    );
  });

  it("--dialect ci-mock serves as Blocks' CI mock answers (listed in --help)", async () => {
    const help = await run(['emulator', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(
      /--dialect <name> [^(]*\(choices: "spec", "live", "ci-mock"/,
    );
    let answer: { status: number; body: unknown } | undefined;
    const r = await runMain(['emulator', '--port', '0', '--dialect', 'ci-mock'], {
      env: env(),
      killAfterMs: 10_000,
      onStart: (h) =>
        void until(() => /^http:\/\/\S+\n/.test(h.stdout)).then(async () => {
          const res = await request(`${h.stdout.split('\n')[0]}/rest/v1/sessions`, {
            method: 'POST',
            headers: { authorization: 'ApiKey agents-dev-key', 'content-type': 'application/json' },
            body: JSON.stringify({ message: 'no agent' }),
          });
          answer = { status: res.statusCode, body: await res.body.json() };
          h.kill('SIGINT');
        }),
    });
    expect(r.signal).toBeNull();
    // The mock's 422 is {"error": …} alone (the live dialect's carries a code too).
    expect(answer?.status).toBe(422);
    expect(Object.keys(answer?.body as object)).toEqual(['error']);
  });
});
