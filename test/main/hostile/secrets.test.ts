// A distinctive API key, and every command, debug mode and error path: the key (or any 8 characters of
// it) never shows on stdout or stderr, even when a service echoes it back, and no file but the config file
// that `login` writes ever holds it; the files that hold it, or the last session, are private (0600, in a
// 0700 directory). Each run is in-process (runMain), against the emulator or a server of our own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EmulatorKey, RunningEmulator } from '../../../src/emulator/index.js';
import { cliEnv, tempConfigDir, type CliResult } from '../../support/run-cli.js';
import { runMain } from '../../support/main.js';
import { configPath } from '../../../src/core/config/locations.js';
import { ownEmulator } from '../../support/emulator.js';

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

// The runs are in-process: whatever the program (or a library under it) might write to this process's own
// stdout or stderr instead of the run's streams is recorded by these spies (which still pass it on), and
// checked too.
const processWrites = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
afterAll(() => processWrites.forEach((spy) => spy.mockRestore()));

/** Nothing this process itself printed while the runs went on holds a piece of the key. */
function expectNoKeyOnProcessStreams() {
  const text = processWrites
    .flatMap((spy) =>
      spy.mock.calls.map(([chunk]) =>
        typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'),
      ),
    )
    .join('');
  const leaked = PIECES.find((p) => text.includes(p));
  expect(leaked, `part of the key reached the test process's own output:\n${text}`).toBeUndefined();
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** No file under `dir` (but those in `except`) holds any piece of the key. */
function expectNoKeyInFiles(dir: string, what: string, except: string[] = []) {
  for (const file of filesUnder(dir)) {
    if (except.includes(file)) continue;
    const text = readFileSync(file, 'utf8');
    const leaked = PIECES.find((p) => text.includes(p));
    expect(leaked, `${what}: ${file} holds part of the key`).toBeUndefined();
  }
}

type DebugMode = [string, string[], NodeJS.ProcessEnv];
const DEBUG_MODES: DebugMode[] = [
  ['plain', [], {}],
  ['--debug', ['--debug'], {}],
  ['AGENTS_DEBUG=1', [], { AGENTS_DEBUG: '1' }],
];

async function emulator(keys: EmulatorKey[] = [{ key: KEY, workspace: 'dev' }]): Promise<RunningEmulator> {
  return ownEmulator({ keys });
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
        runMain([...flags, ...args], { env, ...(input === undefined ? {} : { input }) });
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
      const file = configPath(env);
      for (const [what, args, input] of runs) {
        const r = await run(args, input);
        expect(r.code, `${what}: ${r.stderr}`).toBe(0);
        expectNoKey(r, what);
        // Only login writes the key, and only to the config file.
        expectNoKeyInFiles(env.AGENTS_CONFIG_DIR!, what, [file]);
      }
      // logout took it out of the config file too.
      expectNoKeyInFiles(env.AGENTS_CONFIG_DIR!, 'after logout');
      if (flags.length || extra.AGENTS_DEBUG) {
        // The debug trace is really on, and shows where the key would be.
        const r = await run(['show', id]);
        expect(r.stderr).toMatch(/→ GET/);
        expectNoKey(r, 'show (debug)');
      }
      expectNoKeyOnProcessStreams();
    } finally {
      await em.close();
    }
  });

  it.for(DEBUG_MODES)('error paths, %s', async ([, flags, extra]: DebugMode) => {
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
          const r = await runMain([...flags, ...args], { env, ...(input === undefined ? {} : { input }) });
          expectNoKey(r, what);
          expect(r.code, `${what}: ${r.stderr}`).toBe(code);
          expect(r.stderr).toMatch(/error: /);
          // A refused key is not stored, and no error path writes it anywhere.
          expectNoKeyInFiles(env.AGENTS_CONFIG_DIR!, what);
        }),
      );
      expectNoKeyOnProcessStreams();
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
      const login = await runMain(['login', '--with-key'], { env, input: KEY });
      expect(login.code, login.stderr).toBe(0);
      const file = configPath(env);
      expect(readFileSync(file, 'utf8')).toContain(KEY);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(root, 'config', 'agents')).mode & 0o777).toBe(0o700);
      const created = await runMain(['create', '-a', 'claude', 'hi'], { env });
      expect(created.code, created.stderr).toBe(0);
      expect(statSync(join(root, 'state', 'agents', 'state.json')).mode & 0o777).toBe(0o600);
      expect(statSync(join(root, 'state', 'agents')).mode & 0o777).toBe(0o700);
      // A second write (conf rewrites the file) keeps it private.
      const set = await runMain(['config', 'set', 'agent', 'codex'], { env });
      expect(set.code).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(root, 'config', 'agents')).mode & 0o777).toBe(0o700);
      // The key is in the config file only: not in the state file beside the last session.
      expectNoKeyInFiles(root, 'the state dir', [file]);
    } finally {
      await em.close();
    }
  });
});
