// `agents login --with-key` and `agents logout`: the program in-process (runMain, the key on its stdin)
// against the emulator (and a closed port, and a web server that is not the API) over real sockets, each run
// with its own config dir.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { openConfigFile } from '../../../src/core/config/config-file.js';
import type { CliResult } from '../../support/run-cli.js';
import { agents, cleanEnv, freshDir, stored } from '../../support/config.js';

const GOOD = 'sk-good-0123456789abcdefghij';
const FORBIDDEN = 'sk-forbidden-0123456789abcdef';
const WRONG = 'sk-wrong-0123456789abcdefghij';

let em: RunningEmulator;
let htmlServer: Server;
let htmlUrl: string;
let closedUrl: string;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  em = await startEmulator({
    port: 0,
    rateLimit: false,
    keys: [
      { key: GOOD, workspace: 'ws' },
      { key: FORBIDDEN, workspace: 'ws', forbidden: true },
    ],
  });
  // A web server that is not the API: an HTML 404 for everything.
  htmlServer = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>Not Found</title></html>');
  });
  htmlUrl = await listen(htmlServer);
  // A port that was free a moment ago: connections to it are refused.
  const probe = createServer();
  closedUrl = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  await em.close();
  await new Promise((resolve) => htmlServer.close(resolve));
});

/** `agents ARGS` in-process with `env`, `input` on stdin (then closed). */
function cli(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult> {
  return agents(args, env, { input });
}

/** Nothing a login prints may hold the key. */
function expectNoKey(run: CliResult, key: string) {
  expect(run.stdout).not.toContain(key);
  expect(run.stderr).not.toContain(key);
}

describe('agents login --with-key', () => {
  it('stores an accepted key with the base URL, in the chosen profile', async () => {
    const dir = freshDir();
    const run = await cli(
      ['login', '--with-key', '--base-url', `${em.url}/`, '--profile', 'work'],
      cleanEnv(dir),
      `${GOOD}\n`,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`Logged in to ${em.url} as profile work`);
    expectNoKey(run, GOOD);
    expect(await stored(dir, 'work')).toEqual({ 'api-key': GOOD, 'base-url': em.url });
    expect(await stored(dir)).toEqual({});

    // The stored profile now works for config get, masked.
    const get = await cli(['config', 'get', 'api-key', '--profile', 'work'], cleanEnv(dir));
    expect(get).toMatchObject({ code: 0, stdout: 'sk-g…ghij\n' });
  });

  it('takes the base URL from AGENTS_BASE_URL, trims one trailing newline only', async () => {
    const dir = freshDir();
    const run = await cli(['login', '--with-key'], cleanEnv(dir, { AGENTS_BASE_URL: em.url }), `${GOOD}\r\n`);
    expect(run.code).toBe(0);
    expect((await stored(dir))['api-key']).toBe(GOOD);
  });

  it('a rejected key (401) exits 3 and stores nothing', async () => {
    const dir = freshDir();
    const run = await cli(['login', '--with-key', '--base-url', em.url], cleanEnv(dir), WRONG);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^error: .*rejected the API key \(HTTP 401\); nothing was stored$/m);
    expectNoKey(run, WRONG);
    expect(await stored(dir)).toEqual({});
  });

  it('a refused key (403) exits 3 and stores nothing, not even over an older login', async () => {
    const dir = freshDir();
    await openConfigFile({ AGENTS_CONFIG_DIR: dir }).set('default', 'api-key', GOOD);
    const run = await cli(['login', '--with-key', '--base-url', em.url], cleanEnv(dir), FORBIDDEN);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/HTTP 403/);
    expect(await stored(dir)).toEqual({ 'api-key': GOOD });
  });

  it('an unreachable server exits 1 and stores nothing', async () => {
    const dir = freshDir();
    const run = await cli(['login', '--with-key', '--base-url', closedUrl], cleanEnv(dir), GOOD);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: could not check the key: .*nothing was stored$/m);
    expectNoKey(run, GOOD);
    expect(await stored(dir)).toEqual({});
  });

  it('a server that is not the API (an HTML 404) exits 1 and stores nothing', async () => {
    const dir = freshDir();
    const run = await cli(['login', '--with-key', '--base-url', htmlUrl], cleanEnv(dir), GOOD);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the server at ${htmlUrl} has no such route (HTTP 404)`);
    expect(await stored(dir)).toEqual({});
  });

  it('a base URL with a wrong path (a route the server lacks) exits 1, names it, and stores nothing', async () => {
    const dir = freshDir();
    const typo = `${em.url}/typo`;
    const run = await cli(['login', '--with-key', '--base-url', typo], cleanEnv(dir), GOOD);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: the server at ${typo} has no such route (HTTP 404): it does not serve the Agent Sessions API there; nothing was stored\n` +
        'hint: check the base URL: it is the address without /rest/v1\n',
    );
    expect(await stored(dir)).toEqual({});
  });

  it('a create against that base URL says to check it, never the session id', async () => {
    const dir = freshDir();
    const env = cleanEnv(dir, { AGENTS_BASE_URL: `${em.url}/typo`, AGENTS_API_KEY: GOOD });
    const run = await cli(['create', '-a', 'claude', 'hello'], env);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`error: the server at ${em.url}/typo has no such route (HTTP 404)`);
    expect(run.stderr).toContain('hint: check the base URL (--base-url, AGENTS_BASE_URL');
    expect(run.stderr).not.toContain('session id');
  });

  it.each([
    ['an empty key', ['--base-url', 'http://127.0.0.1:9'], '\n', /no API key on standard input/],
    ['no base URL', [], GOOD, /login needs a base URL/],
    ['a bad base URL', ['--base-url', 'ftp://example.com'], GOOD, /http:\/\/ or https:\/\//],
    ['a key with spaces', ['--base-url', 'http://127.0.0.1:9'], 'two words', /visible ASCII/],
  ])('%s is a usage error (exit 2) before anything is sent', async (_what, args, input, message) => {
    const dir = freshDir();
    const run = await cli(['login', '--with-key', ...args], cleanEnv(dir), input);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(await stored(dir)).toEqual({});
  });
});

describe('agents login without a terminal', () => {
  it('exits 2 with a hint when --with-key is not given', async () => {
    const dir = freshDir();
    const run = await cli(['login', '--base-url', em.url], cleanEnv(dir), GOOD);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: no terminal to ask for the key$/m);
    expect(run.stderr).toMatch(/^hint: .*agents login --with-key/m);
    expect(await stored(dir)).toEqual({});
  });
});

describe('agents logout', () => {
  it('removes the key stored by login; a second logout is fine', async () => {
    const dir = freshDir();
    expect((await cli(['login', '--with-key', '--base-url', em.url], cleanEnv(dir), GOOD)).code).toBe(0);
    const out = await cli(['logout'], cleanEnv(dir));
    expect(out).toMatchObject({ code: 0, stdout: '' });
    expect(out.stderr).toContain('Removed the API key of profile default');
    expect(await stored(dir)).toEqual({ 'base-url': em.url });
    const again = await cli(['logout'], cleanEnv(dir));
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('has no stored API key');
  });
});
