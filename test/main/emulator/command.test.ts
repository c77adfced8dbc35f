// `agents emulator`: the flags-to-options mapping (pure), the command run in-process, and the built binary
// for what only a process shows: serving until a real SIGINT or SIGTERM, then exiting 0.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { emulatorOptions, parseKeySpec, type EmulatorFlags } from '../../../src/commands/emulator/run.js';
import { FAULT_MODES, MISBEHAVIOURS } from '../../../src/emulator/index.js';
import { UsageError } from '../../../src/cli-error.js';
import { BIN, ROOT, cliEnv } from '../../support/run-cli.js';
import { runMain } from '../../support/main.js';

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

describe('agents emulator (the built binary, stopped by a real signal)', () => {
  it('serves on a free port, prints the URL and keys, answers, and exits 0 on SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--time-scale', '0.01'], {
      cwd: ROOT,
      env: env(),
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const lines = stdout.split('\n');
        if (lines.length >= 3) resolve(lines[0] ?? '');
      });
      child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout.split('\n')[1]).toBe('agents-dev-key\tdev');

    const res = await request(`${url}/rest/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'ApiKey agents-dev-key', 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'claude', message: 'hello' }),
    });
    expect(res.statusCode).toBe(201);
    const session = (await res.body.json()) as { id: string };
    const got = await request(`${url}/rest/v1/sessions/${session.id}`, {
      headers: { authorization: 'ApiKey agents-dev-key' },
    });
    expect(got.statusCode).toBe(200);
    await got.body.dump();

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toContain(`export AGENTS_BASE_URL=${url} AGENTS_API_KEY=agents-dev-key`);
    expect(stderr).toMatch(/stopped after 2 requests/);
  });

  it('prints JSON with --json, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, '--json', 'emulator', '--port', '0', '--key', 'k:w'], {
      cwd: ROOT,
      env: env(),
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
      });
      child.on('exit', () => reject(new Error('exited early')));
    });
    child.kill('SIGTERM');
    expect(JSON.parse(line)).toEqual({
      url: expect.stringMatching(/^http:/) as string,
      keys: [{ key: 'k', workspace: 'w' }],
    });
    expect(await exited).toBe(0);
  });
});

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
});
