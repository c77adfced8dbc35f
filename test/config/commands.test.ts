// `agents config …` and `agents logout` in-process, their output captured from the Context's streams.
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/errors.js';
import { openConfig } from '../../src/config/store.js';
import {
  runConfigGet,
  runConfigList,
  runConfigPath,
  runConfigSet,
  runConfigUnset,
  type ConfigListing,
} from '../../src/commands/config.js';
import { runLogout } from '../../src/commands/logout.js';
import { capture, freshDir } from './helpers.js';

const KEY = 'sk-abcdefghijklmnopqrstuvwxyz1234';

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { AGENTS_CONFIG_DIR: freshDir(), ...extra };
}

async function exitOf(run: () => unknown): Promise<CliError> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    return err as CliError;
  }
  throw new Error('expected a CliError');
}

describe('config set / get / unset', () => {
  it('round-trips each key through the active profile', async () => {
    const e = env();
    const { ctx, stdout, stderr } = await capture(e, { profile: 'work' });
    await runConfigSet(ctx, 'base-url', 'https://agents.example.com/');
    await runConfigSet(ctx, 'agent', 'gemini');
    runConfigGet(ctx, 'base-url');
    runConfigGet(ctx, 'agent');
    expect(stdout()).toBe('https://agents.example.com\ngemini\n');
    expect(stderr()).toContain('Set base-url in profile work');
    expect(openConfig(e).profile('default')).toEqual({});
    await runConfigUnset(ctx, 'agent');
    await runConfigUnset(ctx, 'agent');
    expect(stderr()).toMatch(/Unset agent in profile work\nagent was not set in profile work/);
    expect(openConfig(e).profile('work')).toEqual({ 'base-url': 'https://agents.example.com' });
  });

  it('get prints nothing on stdout for an unset key, and null with --json', async () => {
    const { ctx, stdout } = await capture(env());
    runConfigGet(ctx, 'agent');
    expect(stdout()).toBe('');
    const json = await capture(env(), { json: true });
    runConfigGet(json.ctx, 'agent');
    expect(JSON.parse(json.stdout())).toEqual({ key: 'agent', value: null, source: 'unset', origin: null });
  });

  it('get api-key prints the key masked, never whole', async () => {
    const { ctx, stdout, stderr } = await capture(env());
    await runConfigSet(ctx, 'api-key', KEY);
    runConfigGet(ctx, 'api-key');
    expect(stdout()).toBe('sk-a…1234\n');
    expect(stdout() + stderr()).not.toContain(KEY);
  });

  it('set api-key stores it but warns about shell history', async () => {
    const e = env();
    const { ctx, stderr } = await capture(e);
    await runConfigSet(ctx, 'api-key', KEY);
    expect(openConfig(e).get('default', 'api-key')).toBe(KEY);
    expect(stderr()).toMatch(/warning: .*shell's history.*login --with-key/);
  });

  it('warns when the value is overridden by the environment, and about plain http', async () => {
    const { ctx, stderr } = await capture(env({ AGENTS_BASE_URL: 'https://env.example.com' }));
    await runConfigSet(ctx, 'base-url', 'http://agents.example.com');
    expect(stderr()).toMatch(/warning: http:\/\/agents\.example\.com uses plain http/);
    expect(stderr()).toMatch(/warning: AGENTS_BASE_URL overrides this value/);
  });

  it.each([
    ['an unknown key', 'bogus', 'x', /unknown config key "bogus": use one of api-key, base-url, agent/],
    ['a relative base URL', 'base-url', '/api', /absolute http:\/\/ or https:\/\//],
    ['an ftp base URL', 'base-url', 'ftp://example.com', /http:\/\/ or https:\/\//],
    ['a base URL with credentials', 'base-url', 'https://me:pw@example.com', /user name or password/],
    ['a garbage base URL', 'base-url', '::::', /not a valid URL/],
    ['an unknown agent', 'agent', 'gpt-5', /use one of claude, codex, gemini, opencode, cursor, kimi/],
    ['a key with a line break', 'api-key', 'sk-1\nX: y', /visible ASCII/],
  ])('set refuses %s with exit 2 and stores nothing', async (_what, key, value, message) => {
    const e = env();
    const { ctx } = await capture(e);
    const err = await exitOf(() => runConfigSet(ctx, key, value));
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(message);
    expect(openConfig(e).profiles()).toEqual([]);
  });

  it('get and unset refuse an unknown key with exit 2', async () => {
    const { ctx } = await capture(env());
    expect((await exitOf(() => runConfigGet(ctx, 'apiKey'))).exitCode).toBe(2);
    expect((await exitOf(() => runConfigUnset(ctx, 'profile'))).exitCode).toBe(2);
  });

  it('a bad --profile is a usage error naming what is allowed', async () => {
    const { ctx } = await capture(env(), { profile: 'my profile' });
    const err = await exitOf(() => runConfigSet(ctx, 'agent', 'claude'));
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/--profile.*letters, digits, "-" or "_"/);
  });
});

describe('config list', () => {
  it('shows the values in effect with their sources, the key masked', async () => {
    const e = env();
    const setup = await capture(e, { profile: 'work' });
    await runConfigSet(setup.ctx, 'api-key', KEY);
    await runConfigSet(setup.ctx, 'agent', 'codex');
    const { ctx, stdout, stderr } = await capture(
      { ...e, AGENTS_PROFILE: 'work', AGENTS_BASE_URL: 'https://env.example.com' },
      {},
    );
    runConfigList(ctx);
    const text = stdout();
    expect(text).toMatch(/^profile +work +\(AGENTS_PROFILE\)$/m);
    expect(text).toMatch(/^api-key +sk-a…1234 +\(profile work\)$/m);
    expect(text).toMatch(/^base-url +https:\/\/env\.example\.com +\(AGENTS_BASE_URL\)$/m);
    expect(text).toMatch(/^agent +codex +\(profile work\)$/m);
    expect(text + stderr()).not.toContain(KEY);
  });

  it('--json gives one object, the key masked', async () => {
    const e = env();
    const setup = await capture(e);
    await runConfigSet(setup.ctx, 'api-key', KEY);
    const { ctx, stdout } = await capture({ ...e }, { json: true, baseUrl: 'https://flag.example.com' });
    runConfigList(ctx);
    expect(stdout()).not.toContain(KEY);
    expect(JSON.parse(stdout())).toEqual({
      profile: 'default',
      profileSource: 'default',
      path: openConfig(e).path,
      profiles: ['default'],
      settings: {
        'api-key': { key: 'api-key', value: 'sk-a…1234', source: 'profile', origin: 'profile default' },
        'base-url': {
          key: 'base-url',
          value: 'https://flag.example.com',
          source: 'flag',
          origin: '--base-url',
        },
        agent: { key: 'agent', value: null, source: 'unset', origin: null },
      },
    });
  });

  it('masks a key that comes from AGENTS_API_KEY too', async () => {
    const { ctx, stdout } = await capture(env({ AGENTS_API_KEY: KEY }), { json: true });
    runConfigList(ctx);
    expect(stdout()).not.toContain(KEY);
    const listing = JSON.parse(stdout()) as ConfigListing;
    expect(listing.settings['api-key']).toMatchObject({ value: 'sk-a…1234', source: 'env' });
  });
});

describe('config path', () => {
  it('prints the file in AGENTS_CONFIG_DIR', async () => {
    const e = env();
    const { ctx, stdout } = await capture(e);
    runConfigPath(ctx);
    expect(stdout()).toBe(`${openConfig(e).path}\n`);
    expect(stdout()).toContain(e.AGENTS_CONFIG_DIR);
  });
});

describe('logout', () => {
  it('removes the key of the profile, keeps the rest, and is idempotent', async () => {
    const e = env();
    const store = openConfig(e);
    store.set('work', 'api-key', KEY);
    store.set('work', 'base-url', 'https://agents.example.com');
    store.set('default', 'api-key', KEY);
    const { ctx, stderr } = await capture(e, { profile: 'work' });
    expect(runLogout(ctx)).toEqual({ profile: 'work', removed: true });
    expect(store.profile('work')).toEqual({ 'base-url': 'https://agents.example.com' });
    expect(store.get('default', 'api-key')).toBe(KEY);
    expect(runLogout(ctx)).toEqual({ profile: 'work', removed: false });
    expect(stderr()).toMatch(/Removed the API key of profile work\nProfile work has no stored API key/);
  });
});
