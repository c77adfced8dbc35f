// A distinctive API key, and every command, debug mode and error path: the key (or any 8 characters of
// it) never shows on stdout or stderr, even when a service echoes it back; the files that hold it, or the
// last session, are private (0600, in a 0700 directory).
import { statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorKey, type RunningEmulator } from '../../src/emulator/index.js';
import { cliEnv, runCli, tempConfigDir, type CliResult } from '../support/run-cli.js';
import { configFile } from '../../src/config/paths.js';

const KEY = 'zq7Xk2Pw9LmN4vB8rT3yHs6JcD5f';
const PIECES = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8));
let checks = 0;
afterAll(() =>
  console.log(`[secrets] ${checks} outputs checked for ${PIECES.length} pieces of the key each`),
);

function expectNoKey(r: CliResult, what: string) {
  for (const text of [r.stdout, r.stderr]) {
    const leaked = PIECES.find((p) => text.includes(p));
    expect(leaked, `${what} printed part of the key:\n${text}`).toBeUndefined();
  }
  checks += 1;
}

type DebugMode = [string, string[], NodeJS.ProcessEnv];
const DEBUG_MODES: DebugMode[] = [
  ['plain', [], {}],
  ['--debug', ['--debug'], {}],
  ['AGENTS_DEBUG=1', [], { AGENTS_DEBUG: '1' }],
];

async function emulator(keys: EmulatorKey[] = [{ key: KEY, workspace: 'dev' }]): Promise<RunningEmulator> {
  return startEmulator({ port: 0, timeScale: 0.05, rateLimit: false, keys });
}

/** A service that echoes the Authorization header back in every answer, with this status. */
async function echoing(status: number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    res
      .writeHead(status, { 'content-type': 'application/json', 'x-echo': auth })
      .end(JSON.stringify({ error: `bad key ${auth}`, code: 'ECHO', key: auth }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.concurrent('the key never shows', () => {
  it.for(DEBUG_MODES)('every command, %s', async ([, flags, extra]: DebugMode) => {
    const em = await emulator();
    try {
      const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...extra });
      const run = (args: string[], input?: string) =>
        runCli([...flags, ...args], { env, ...(input === undefined ? { closeStdin: true } : { input }) });
      const created = await run(['create', '-a', 'claude', 'hello']);
      expect(created.code).toBe(0);
      expectNoKey(created, 'create');
      const id = created.stdout.trim().split('\n').at(-1) ?? '';
      const runs: Array<[string, string[], string?]> = [
        ['create --wait', ['create', '-a', 'claude', '--wait', '--json', 'hi']],
        ['send --wait', ['send', id, '--wait', 'again']],
        ['show --all --json', ['show', id, '--all', '--json']],
        ['tail --until-final', ['tail', id, '--until-final']],
        ['config list', ['config', 'list']],
        ['config get api-key', ['config', 'get', 'api-key']],
        ['config set base-url', ['config', 'set', 'base-url', em.url]],
        ['config path', ['config', 'path']],
        ['login --with-key', ['login', '--with-key'], KEY],
        ['config list (stored key)', ['config', 'list']],
        ['config get api-key (stored key)', ['config', 'get', 'api-key']],
        ['logout', ['logout']],
      ];
      for (const [what, args, input] of runs) {
        const r = await run(args, input);
        expect(r.code, `${what}: ${r.stderr}`).toBe(0);
        expectNoKey(r, what);
      }
      if (flags.length || extra.AGENTS_DEBUG) {
        // The debug trace is really on, and shows where the key would be.
        const r = await run(['show', id]);
        expect(r.stderr).toMatch(/→ GET/);
      }
    } finally {
      await em.close();
    }
  });

  it.for(DEBUG_MODES)('error paths, %s', { timeout: 60_000 }, async ([, flags, extra]: DebugMode) => {
    const em = await emulator([
      { key: 'some-other-key-000', workspace: 'dev' },
      { key: `${KEY}-forbidden`, workspace: 'dev', forbidden: true },
    ]);
    const echo401 = await echoing(401);
    const echo422 = await echoing(422);
    const echo500 = await echoing(500);
    const closed = await echoing(200);
    const closedUrl = closed.url;
    closed.server.close();
    try {
      const base = (url: string, key = KEY) =>
        cliEnv({ AGENTS_BASE_URL: url, AGENTS_API_KEY: key, ...extra });
      const uuid = '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f';
      const cases: Array<[string, string[], NodeJS.ProcessEnv, number]> = [
        ['401 (unknown key)', ['show', uuid], base(em.url), 3],
        ['403 (forbidden key)', ['create', '-a', 'claude', 'x'], base(em.url, `${KEY}-forbidden`), 3],
        ['404', ['show', uuid], base(em.url, 'some-other-key-000'), 4],
        ['401 that echoes the key', ['show', uuid], base(echo401.url), 3],
        ['422 that echoes the key', ['tail', uuid], base(echo422.url), 1],
        ['500 that echoes the key', ['create', '-a', 'claude', 'x'], base(echo500.url), 1],
        ['login --with-key refused', ['login', '--with-key'], base(em.url), 3],
        ['network error', ['show', uuid], base(closedUrl), 1],
        ['user:key@ in the base URL', ['show', uuid], base(closedUrl.replace('//', `//user:${KEY}@`)), 2],
        ['key in the base URL query', ['show', uuid], base(`${closedUrl}/?key=${KEY}`), 2],
      ];
      await Promise.all(
        cases.map(async ([what, args, env, code]) => {
          const input = args[0] === 'login' ? KEY : undefined;
          const r = await runCli([...flags, ...args], {
            env,
            killAfterMs: 60_000,
            ...(input === undefined ? { closeStdin: true } : { input }),
          });
          expectNoKey(r, what);
          expect(r.code, `${what}: ${r.stderr}`).toBe(code);
          expect(r.stderr).toMatch(/error: /);
        }),
      );
    } finally {
      await em.close();
      for (const s of [echo401, echo422, echo500]) s.server.close();
    }
  });
});

describe('files that hold the key or the last session are private', () => {
  it('config file 0600 in a 0700 dir; state file 0600 in a 0700 dir', async () => {
    const em = await emulator();
    try {
      const root = tempConfigDir();
      const env = cliEnv({
        AGENTS_BASE_URL: em.url,
        AGENTS_CONFIG_DIR: join(root, 'config', 'agents'),
        AGENTS_STATE_DIR: join(root, 'state', 'agents'),
      });
      const login = await runCli(['login', '--with-key'], { env, input: KEY });
      expect(login.code, login.stderr).toBe(0);
      const file = configFile(env);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(root, 'config', 'agents')).mode & 0o777).toBe(0o700);
      const created = await runCli(['create', '-a', 'claude', 'hi'], { env, closeStdin: true });
      expect(created.code, created.stderr).toBe(0);
      expect(statSync(join(root, 'state', 'agents', 'state.json')).mode & 0o777).toBe(0o600);
      expect(statSync(join(root, 'state', 'agents')).mode & 0o777).toBe(0o700);
      // A second write (conf rewrites the file) keeps it private.
      const set = await runCli(['config', 'set', 'agent', 'codex'], { env, closeStdin: true });
      expect(set.code).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      await em.close();
    }
  });
});
