// The key in the system's keychain (issue 49): `agents login`, a command that sends with it, `logout`, the
// move from the file, Agents.fromConfig, against a real Secret Service (GNOME Keyring on a private D-Bus
// session bus, test/support/keyring.ts); then with no D-Bus at all, and with a bus that never answers.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agents } from '../../../src/sdk/index.js';
import { budgetDigest } from '../../../src/core/budget/state.js';
import { emulator } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { agents, cleanEnv, freshDir, stored } from '../../support/config.js';
import { keyringMissing, silentBus, startKeyring, type Keyring } from '../../support/keyring.js';
import { titled } from '../../support/tools.js';
import { mcpInProcess, textOf } from '../../support/mcp-client.js';
import { FAST_TUNING } from '../../support/main.js';
import type { CliResult } from '../../support/run-cli.js';

const OTHER = 'sk-other-0123456789abcdefghij';

/** The `key-digest` login keeps beside KEY in the keychain for `url`: its origin and its budget's digest. */
const digestOn = (url: string) => `${new URL(url).origin} ${budgetDigest(new URL(url).origin, KEY)}`;
const skip = keyringMissing();

/** Every file under `dir` that holds `text`. */
function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesHolding(path, text));
    else if (readFileSync(path, 'utf8').includes(text)) found.push(path);
  }
  return found;
}

function expectNoKey(run: CliResult, key: string) {
  expect(run.stdout).not.toContain(key);
  expect(run.stderr).not.toContain(key);
}

describe.skipIf(skip !== undefined)(titled('the key in the keychain', skip), () => {
  let keyring: Keyring;
  beforeAll(async () => {
    keyring = await startKeyring();
  });
  afterAll(() => keyring?.close());

  /** The environment of a run on `dir` that reaches the test's keyring. */
  const envOf = (dir: string, extra: NodeJS.ProcessEnv = {}) => cleanEnv(dir, { ...keyring.env, ...extra });

  it('login stores it there, the file only says so; a command reads it; logout removes it', async () => {
    const em = await emulator();
    const dir = freshDir();
    const env = envOf(dir);
    const login = await agents(['login', '--with-key', '--base-url', em.url], env, { input: KEY });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('the key is in the system keychain');
    expectNoKey(login, KEY);
    expect(await stored(dir)).toEqual({
      'base-url': em.url,
      'key-store': 'keychain',
      'key-digest': digestOn(em.url),
    });
    expect(keyring.entries().get(`default@${dir}`)).toBe(KEY);
    // The home and config folder (one here) hold it nowhere.
    expect(filesHolding(dir, KEY)).toEqual([]);

    // A command that sends a request, with --debug: the key goes out, and is printed nowhere.
    // Paced as a real run is (the tests' default turns pacing off), so that it spends from the key's budget.
    const create = await agents(['create', '-a', 'claude', '--debug', 'hi'], env, { tuning: {} });
    expect(create.code, create.stderr).toBe(0);
    expect(create.stdout).toMatch(/[0-9a-f-]{36}/);
    expectNoKey(create, KEY);

    // `agents budget` finds the key's budget (the create above spent from it) by the digest beside the
    // marker, without the keychain: with no D-Bus at all it reads the same budget.
    const noBus = { ...env };
    delete noBus.DBUS_SESSION_BUS_ADDRESS;
    const budget = await agents(['budget', '--json'], noBus);
    expect(budget.code, budget.stderr).toBe(0);
    expect((JSON.parse(budget.stdout) as { used: number }).used).toBeGreaterThan(0);

    // config says where it is, and shows nothing of it.
    const list = await agents(['config', 'list', '--json'], env);
    const listing = JSON.parse(list.stdout) as { settings: Record<string, unknown> };
    expect(listing.settings['api-key']).toEqual({
      key: 'api-key',
      value: null,
      source: 'profile',
      origin: `profile default, system keychain`,
      store: 'keychain',
    });
    const text = await agents(['config', 'get', 'api-key'], env);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('api-key is in the system keychain, and never shown');
    const listed = await agents(['config', 'list'], env);
    expect(listed.stdout).toMatch(
      /^api-key +\(in the system keychain\) +\(profile default, system keychain\)$/m,
    );

    const logout = await agents(['logout'], env);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toContain('Removed the API key of profile default from the system keychain');
    expect(keyring.entries().has(`default@${dir}`)).toBe(false);
    expect(await stored(dir)).toEqual({ 'base-url': em.url });
    const after = await agents(['create', '-a', 'claude', 'hi'], env);
    expect(after.code).toBe(3);
  });

  it('a key in the file keeps working, and login again moves it into the keychain', async () => {
    const em = await emulator();
    const dir = freshDir();
    const env = envOf(dir);
    const old = await agents(['login', '--with-key', '--insecure-storage', '--base-url', em.url], env, {
      input: KEY,
    });
    expect(old.code, old.stderr).toBe(0);
    expect(old.stderr).toContain(`the key is in the config file ${join(dir, 'config.json')}`);
    expect(await stored(dir)).toEqual({ 'base-url': em.url, 'api-key': KEY });
    expect(keyring.entries().has(`default@${dir}`)).toBe(false);
    expect((await agents(['create', '-a', 'claude', 'hi'], env)).code).toBe(0);

    const again = await agents(['login', '--with-key', '--base-url', em.url], env, { input: KEY });
    expect(again.code, again.stderr).toBe(0);
    expect(await stored(dir)).toEqual({
      'base-url': em.url,
      'key-store': 'keychain',
      'key-digest': digestOn(em.url),
    });
    expect(keyring.entries().get(`default@${dir}`)).toBe(KEY);
    expect(filesHolding(dir, KEY)).toEqual([]);

    // And back to the file on request: the keychain keeps no copy.
    const back = await agents(['login', '--with-key', '--insecure-storage', '--base-url', em.url], env, {
      input: KEY,
    });
    expect(back.code, back.stderr).toBe(0);
    expect(keyring.entries().has(`default@${dir}`)).toBe(false);
    expect(await stored(dir)).toEqual({ 'base-url': em.url, 'api-key': KEY });
  });

  it('Agents.fromConfig reads it from the keychain as the CLI does; AGENTS_API_KEY wins', async () => {
    const em = await emulator();
    const dir = freshDir();
    const env = envOf(dir);
    const login = await agents(['login', '--with-key', '--profile', 'work', '--base-url', em.url], env, {
      input: KEY,
    });
    expect(login.code, login.stderr).toBe(0);
    const lib = await Agents.fromConfig({ profile: 'work', env });
    const turn = await lib.create({ agent: 'claude', message: 'hi' });
    expect((await lib.show(turn.sessionId)).session.id).toBe(turn.sessionId);
    // A wrong key in the environment is the one sent: the keychain's is not read.
    const overridden = await agents(['create', '-a', 'claude', '--profile', 'work', 'hi'], {
      ...env,
      AGENTS_API_KEY: OTHER,
    });
    expect(overridden.code).toBe(3);
  });

  it('agents mcp reads it from the keychain as the CLI does', async () => {
    const em = await emulator();
    const dir = freshDir();
    const env = envOf(dir);
    expect((await agents(['login', '--with-key', '--base-url', em.url], env, { input: KEY })).code).toBe(0);
    const mcp = await mcpInProcess(env, FAST_TUNING);
    try {
      const r = await mcp.call('create_session', { agent: 'claude', message: 'hi' });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(em.stats().sessionsCreated).toBe(1);
      expect(mcp.stderr()).not.toContain(KEY);
    } finally {
      await mcp.close();
    }
  });

  it('an entry that holds no key is treated as absent: exit 3 with the login hint, nothing sent', async () => {
    const em = await emulator();
    const dir = freshDir();
    const env = envOf(dir);
    expect((await agents(['login', '--with-key', '--base-url', em.url], env, { input: KEY })).code).toBe(0);
    keyring.put(`default@${dir}`, 'not a key\nat all');
    em.resetStats();
    const run = await agents(['create', '-a', 'claude', 'hi'], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('is not a valid API key');
    expect(run.stderr).toContain('agents login');
    expect(run.stderr).not.toContain('not a key');
    expect(em.stats().requests).toBe(0);
  });

  it('two logins of one profile at once: one wins, its key beside its base URL', async () => {
    const [a, b] = await Promise.all([emulator(), emulator({ keys: [{ key: OTHER, workspace: 'other' }] })]);
    const dir = freshDir();
    const env = envOf(dir);
    const runs = await Promise.all([
      agents(['login', '--with-key', '--base-url', a.url], env, { input: KEY }),
      agents(['login', '--with-key', '--base-url', b.url], env, { input: OTHER }),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const file = await stored(dir);
    expect(file['key-store']).toBe('keychain');
    const key = keyring.entries().get(`default@${dir}`);
    expect(key).toBe(file['base-url'] === a.url ? KEY : OTHER);
  });
});

describe.skipIf(skip !== undefined)(titled('no keychain answers', skip), () => {
  it('no D-Bus at all: login keeps the key in the file and says so in one line; --keychain refuses', async () => {
    const em = await emulator();
    const dir = freshDir();
    const env = cleanEnv(dir, { AGENTS_KEYCHAIN: '1' });
    const login = await agents(['login', '--with-key', '--base-url', em.url], env, { input: KEY });
    expect(login.code, login.stderr).toBe(0);
    const lines = login.stderr.split('\n').filter((l) => l.includes('keychain'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /no system keychain answers here \(.*\): the key is stored in the config file .*config\.json \(mode 0600\)/,
    );
    expectNoKey(login, KEY);
    expect(await stored(dir)).toEqual({ 'base-url': em.url, 'api-key': KEY });
    expect((await agents(['create', '-a', 'claude', 'hi'], env)).code).toBe(0);

    const strict = freshDir();
    const refused = await agents(
      ['login', '--with-key', '--keychain', '--base-url', em.url],
      cleanEnv(strict, {
        AGENTS_KEYCHAIN: '1',
      }),
      { input: KEY },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/no system keychain answers here .*; nothing was stored/);
    expect(refused.stderr).toContain('agents login --insecure-storage');
    expect(await stored(strict)).toEqual({});
  });

  it('a keyring that refuses: login says so and keeps the key in the file; --keychain stores nothing and says what to run', async () => {
    const em = await emulator();
    const locked = await startKeyring({ locked: true });
    try {
      const dir = freshDir();
      const env = cleanEnv(dir, locked.env);
      const login = await agents(['login', '--with-key', '--base-url', em.url], env, { input: KEY });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toMatch(
        /^warning: the system keychain refused access \(.+\): the key is stored in the config file .+ \(mode 0600\)$/m,
      );
      expect(await stored(dir)).toEqual({ 'base-url': em.url, 'api-key': KEY });

      const strict = freshDir();
      const refused = await agents(
        ['login', '--with-key', '--keychain', '--base-url', em.url],
        cleanEnv(strict, locked.env),
        { input: KEY },
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/the system keychain refused access .*; nothing was stored/);
      expect(refused.stderr).toContain('unlock the keychain and run `agents login --keychain` again');
      expect(await stored(strict)).toEqual({});
      expectNoKey(refused, KEY);
    } finally {
      locked.close();
    }
  });

  it('logout with a keychain that never answers changes nothing, and says what to run', async () => {
    const bus = await silentBus();
    try {
      const dir = freshDir();
      const profile = { 'base-url': 'https://agents.example.com', 'key-store': 'keychain' };
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }));
      const run = await agents(['logout'], cleanEnv(dir, bus.env), { tuning: { keychainTimeoutMs: 300 } });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'could not remove the key of profile default: the system keychain did not answer within 300 ms',
      );
      expect(run.stderr).toContain('run `agents logout` again');
      expect(await stored(dir)).toEqual(profile);
    } finally {
      await bus.close();
    }
  });

  it('a bus that never answers counts as none once the bound has passed', async () => {
    const em = await emulator();
    const bus = await silentBus();
    try {
      const dir = freshDir();
      const env = cleanEnv(dir, bus.env);
      const login = await agents(['login', '--with-key', '--base-url', em.url], env, {
        input: KEY,
        tuning: { keychainTimeoutMs: 300 },
      });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toMatch(
        /the system keychain did not answer within 300 ms: the key is stored in the config file/,
      );
      expect(await stored(dir)).toEqual({ 'base-url': em.url, 'api-key': KEY });
    } finally {
      await bus.close();
    }
  });
});
