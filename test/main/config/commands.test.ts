// `agents config …` and `agents logout` in-process (runMain): exit code, stdout, stderr, and what the config
// file holds afterwards.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConfigFile } from '../../../src/core/config/config-file.js';
import type { ConfigListing } from '../../../src/cli/commands/config/items.js';
import type { CliResult } from '../../support/run-cli.js';
import { agents, cleanEnv, freshDir, stored, storedProfiles } from '../../support/config.js';

const KEY = 'sk-abcdefghijklmnopqrstuvwxyz1234';

/** A fresh config dir and a clean environment pointing at it. */
function setup(extra: NodeJS.ProcessEnv = {}): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = freshDir();
  return { dir, env: cleanEnv(dir, extra) };
}

/** The run ended with `code` and exactly one error line (and at most a hint) on stderr. */
function expectError(run: CliResult, code: number, message: RegExp): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toBe('');
  const lines = run.stderr.replace(/\n$/, '').split('\n');
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  expect(lines.slice(1).every((l) => l.startsWith('hint: '))).toBe(true);
  expect(lines.length).toBeLessThanOrEqual(2);
}

describe('config set / get / unset', () => {
  it('round-trips each key through the active profile', async () => {
    const { dir, env } = setup();
    const work = (...args: string[]) => agents(['--profile', 'work', 'config', ...args], env);
    const setUrl = await work('set', 'base-url', 'https://agents.example.com/');
    expect(setUrl).toMatchObject({ code: 0, stdout: '' });
    expect(setUrl.stderr).toContain('Set base-url in profile work');
    expect(await work('set', 'agent', 'gemini')).toMatchObject({ code: 0, stdout: '' });
    expect(await work('get', 'base-url')).toMatchObject({ code: 0, stdout: 'https://agents.example.com\n' });
    expect(await work('get', 'agent')).toMatchObject({ code: 0, stdout: 'gemini\n' });
    expect(await stored(dir, 'default')).toEqual({});
    const unset = await work('unset', 'agent');
    const again = await work('unset', 'agent');
    expect(unset).toMatchObject({ code: 0, stdout: '' });
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(unset.stderr).toMatch(/Unset agent in profile work/);
    expect(again.stderr).toMatch(/agent was not set in profile work/);
    expect(await stored(dir, 'work')).toEqual({ 'base-url': 'https://agents.example.com' });
  });

  it('get prints nothing on stdout for an unset key, and null with --json', async () => {
    const plain = await agents(['config', 'get', 'agent'], setup().env);
    expect(plain).toMatchObject({ code: 0, stdout: '' });
    expect(plain.stderr).toMatch(/agent is not set/);
    const json = await agents(['--json', 'config', 'get', 'agent'], setup().env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ key: 'agent', value: null, source: 'unset', origin: null });
  });

  it('get api-key prints the key masked, never whole', async () => {
    const { env } = setup();
    const set = await agents(['config', 'set', 'api-key', KEY], env);
    const get = await agents(['config', 'get', 'api-key'], env);
    expect(get).toMatchObject({ code: 0, stdout: 'sk-a…1234\n' });
    expect(set.stdout + set.stderr + get.stdout + get.stderr).not.toContain(KEY);
  });

  it('set api-key stores it but warns about shell history', async () => {
    const { dir, env } = setup();
    const run = await agents(['config', 'set', 'api-key', KEY], env);
    expect(run.code).toBe(0);
    expect((await stored(dir))['api-key']).toBe(KEY);
    expect(run.stderr).toMatch(/warning: .*shell's history.*login --with-key/);
  });

  it('warns when the value is overridden by the environment, and about plain http', async () => {
    const { env } = setup({ AGENTS_BASE_URL: 'https://env.example.com' });
    const run = await agents(['config', 'set', 'base-url', 'http://agents.example.com'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: http:\/\/agents\.example\.com uses plain http/);
    expect(run.stderr).toMatch(/warning: AGENTS_BASE_URL overrides this value/);
  });

  it('warns when --base-url overrides the value in this run', async () => {
    const { dir, env } = setup();
    const run = await agents(
      ['--base-url', 'https://flag.example.com', 'config', 'set', 'base-url', 'https://agents.example.com'],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: --base-url overrides this value in this run/);
    expect(await stored(dir)).toEqual({ 'base-url': 'https://agents.example.com' });
  });

  it.each([
    ['an unknown key', 'bogus', 'x', /unknown config key "bogus": use one of api-key, base-url, agent/],
    ['a relative base URL', 'base-url', '/api', /absolute http:\/\/ or https:\/\//],
    ['an ftp base URL', 'base-url', 'ftp://example.com', /http:\/\/ or https:\/\//],
    ['a base URL with credentials', 'base-url', 'https://me:pw@example.com', /user name or password/],
    ['a garbage base URL', 'base-url', '::::', /not a valid URL/],
    [
      'an unknown agent',
      'agent',
      'gpt-5',
      /use one of claude, codex, gemini, opencode, cursor, kimi, sisyphus$/,
    ],
    ['a key with a line break', 'api-key', 'sk-1\nX: y', /visible ASCII/],
  ])('set refuses %s with exit 2 and stores nothing', async (_what, key, value, message) => {
    const { dir, env } = setup();
    expectError(await agents(['config', 'set', key, value], env), 2, message);
    expect(await storedProfiles(dir)).toEqual({});
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('get and unset refuse an unknown key with exit 2', async () => {
    const { env } = setup();
    expectError(await agents(['config', 'get', 'apiKey'], env), 2, /unknown config key "apiKey"/);
    expectError(await agents(['config', 'unset', 'profile'], env), 2, /unknown config key "profile"/);
  });

  it('a bad --profile is a usage error naming what is allowed', async () => {
    const { dir, env } = setup();
    const run = await agents(['--profile', 'my profile', 'config', 'set', 'agent', 'claude'], env);
    expectError(run, 2, /--profile.*letters, digits, "-" or "_"/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a broken config file is named by get when the value comes from it, and not read when it does not', async () => {
    const { dir, env } = setup();
    const path = join(dir, 'config.json');
    writeFileSync(path, `{"profiles": {"default": {"api-key": "${KEY}"`);
    const broken = await agents(['config', 'get', 'base-url'], env);
    expectError(
      broken,
      2,
      new RegExp(`the config file ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON`),
    );
    expect(broken.stderr).not.toContain(KEY);
    // The value from the environment or a flag needs no file: the broken one is not read.
    const fromEnv = await agents(['config', 'get', 'base-url'], {
      ...env,
      AGENTS_BASE_URL: 'https://env.example.com',
    });
    expect(fromEnv).toMatchObject({ code: 0, stdout: 'https://env.example.com\n' });
    const fromFlag = await agents(
      ['--base-url', 'https://flag.example.com', 'config', 'get', 'base-url'],
      env,
    );
    expect(fromFlag).toMatchObject({ code: 0, stdout: 'https://flag.example.com\n' });
    expect(await agents(['config', 'path'], env)).toMatchObject({ code: 0, stdout: `${path}\n` });
  });
});

describe('config list', () => {
  it('shows the values in effect with their sources, the key masked', async () => {
    const { env } = setup();
    expect((await agents(['--profile', 'work', 'config', 'set', 'api-key', KEY], env)).code).toBe(0);
    expect((await agents(['--profile', 'work', 'config', 'set', 'agent', 'codex'], env)).code).toBe(0);
    const run = await agents(['config', 'list'], {
      ...env,
      AGENTS_PROFILE: 'work',
      AGENTS_BASE_URL: 'https://env.example.com',
    });
    expect(run.code).toBe(0);
    const text = run.stdout;
    expect(text).toMatch(/^profile +work +\(AGENTS_PROFILE\)$/m);
    expect(text).toMatch(/^api-key +sk-a…1234 +\(profile work, config file\)$/m);
    expect(text).toMatch(/^base-url +https:\/\/env\.example\.com +\(AGENTS_BASE_URL\)$/m);
    expect(text).toMatch(/^agent +codex +\(profile work\)$/m);
    expect(text).toMatch(/^profiles +work +\(config file\)$/m);
    expect(text + run.stderr).not.toContain(KEY);
  });

  it('--json gives one object, the key masked', async () => {
    const { dir, env } = setup();
    expect((await agents(['config', 'set', 'api-key', KEY], env)).code).toBe(0);
    const run = await agents(['--json', '--base-url', 'https://flag.example.com', 'config', 'list'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(KEY);
    expect(JSON.parse(run.stdout)).toEqual({
      profile: 'default',
      profileSource: 'default',
      path: openConfigFile({ AGENTS_CONFIG_DIR: dir }).path,
      profiles: ['default'],
      settings: {
        'api-key': {
          key: 'api-key',
          value: 'sk-a…1234',
          source: 'profile',
          origin: 'profile default, config file',
          store: 'file',
        },
        'base-url': {
          key: 'base-url',
          value: 'https://flag.example.com',
          source: 'flag',
          origin: '--base-url',
        },
        agent: { key: 'agent', value: null, source: 'unset', origin: null },
        'budget-url': { key: 'budget-url', value: null, source: 'unset', origin: null },
        notify: { key: 'notify', value: null, source: 'unset', origin: null },
      },
    });
  });

  it('budget-url is stored, shown with its password masked, and refused when it is no redis:// address', async () => {
    const { env } = setup();
    expect(
      (await agents(['config', 'set', 'budget-url', 'redis://ci:s3cr3t-pw@redis.example:6379/2'], env)).code,
    ).toBe(0);
    const run = await agents(['--json', 'config', 'list'], env);
    expect(run.stdout).not.toContain('s3cr3t-pw');
    const listed = (JSON.parse(run.stdout) as { settings: Record<string, { value: string | null }> })
      .settings;
    expect(listed['budget-url']?.value).toBe('redis://ci:****@redis.example:6379/2');
    // Asked for alone, it is read from the profile (it once printed "not set" here).
    expect(await agents(['config', 'get', 'budget-url'], env)).toMatchObject({
      code: 0,
      stdout: 'redis://ci:****@redis.example:6379/2\n',
    });
    const env2 = await agents(['config', 'get', 'budget-url'], {
      ...env,
      AGENTS_BUDGET_URL: 'redis://:other-pw@h:1',
    });
    expect(env2.stdout).not.toContain('other-pw');
    expect(env2.stdout).toBe('redis://:****@h:1\n');
    const bad = await agents(['config', 'set', 'budget-url', 'http://secret@host'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('secret');
  });

  it('masks a key that comes from AGENTS_API_KEY too', async () => {
    const run = await agents(['--json', 'config', 'list'], setup({ AGENTS_API_KEY: KEY }).env);
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    const listing = JSON.parse(run.stdout) as ConfigListing;
    expect(listing.settings['api-key']).toMatchObject({ value: 'sk-a…1234', source: 'env' });
  });
});

describe('config path', () => {
  it('prints the file in AGENTS_CONFIG_DIR', async () => {
    const { dir, env } = setup();
    const run = await agents(['config', 'path'], env);
    expect(run).toMatchObject({ code: 0, stdout: `${openConfigFile({ AGENTS_CONFIG_DIR: dir }).path}\n` });
    expect(run.stdout).toBe(`${join(dir, 'config.json')}\n`);
    const json = await agents(['--json', 'config', 'path'], env);
    expect(JSON.parse(json.stdout)).toEqual({ path: join(dir, 'config.json') });
  });
});

describe('logout', () => {
  it('removes the key of the profile, keeps the rest, and is idempotent', async () => {
    const { dir, env } = setup();
    const store = openConfigFile({ AGENTS_CONFIG_DIR: dir });
    await store.set('work', 'api-key', KEY);
    await store.set('work', 'base-url', 'https://agents.example.com');
    await store.set('default', 'api-key', KEY);
    const first = await agents(['--profile', 'work', 'logout'], env);
    expect(first).toMatchObject({ code: 0, stdout: '' });
    expect(first.stderr).toMatch(/Removed the API key of profile work/);
    expect(await stored(dir, 'work')).toEqual({ 'base-url': 'https://agents.example.com' });
    expect((await stored(dir))['api-key']).toBe(KEY);
    const second = await agents(['--profile', 'work', 'logout'], env);
    expect(second).toMatchObject({ code: 0, stdout: '' });
    expect(second.stderr).toMatch(/Profile work has no stored API key/);
    expect(await stored(dir, 'work')).toEqual({ 'base-url': 'https://agents.example.com' });
  });

  it('warns that AGENTS_API_KEY still logs in', async () => {
    const { env } = setup({ AGENTS_API_KEY: KEY });
    const run = await agents(['logout'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: AGENTS_API_KEY is still set in this environment/);
    expect(run.stderr).not.toContain(KEY);
  });
});
