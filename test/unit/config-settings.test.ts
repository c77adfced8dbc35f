import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, UsageError } from '../../src/core/errors/cli-error.js';
import { openConfigFile, type Profiles } from '../../src/core/config/config-file.js';
import { requireConnection, resolveSettings, type SettingName } from '../../src/core/config/settings.js';
import { freshDir } from '../support/config.js';

const PROFILE_KEY = 'sk-profile-key-0000000000001';
const ENV_KEY = 'sk-env-key-000000000000000002';

interface Seeded {
  env: NodeJS.ProcessEnv;
  /** Reads the config file, as the Context passes it; counts its calls. */
  readFile: () => Promise<Profiles>;
  reads: () => number;
}

/** A counting reader of the config file of `env`. */
function reader(env: NodeJS.ProcessEnv): Omit<Seeded, 'env'> {
  const file = openConfigFile(env);
  let n = 0;
  return {
    readFile: () => {
      n += 1;
      return file.profiles();
    },
    reads: () => n,
  };
}

/** A config file with `default` and `work` profiles filled in. */
async function seeded(): Promise<Seeded> {
  const env = { AGENTS_CONFIG_DIR: freshDir() };
  const store = openConfigFile(env);
  await store.set('default', 'api-key', PROFILE_KEY);
  await store.set('default', 'base-url', 'https://default.example.com');
  await store.set('default', 'agent', 'claude');
  await store.set('work', 'api-key', 'sk-work-key-0000000000000003');
  await store.set('work', 'base-url', 'https://work.example.com');
  await store.set('work', 'agent', 'codex');
  return { env, ...reader(env) };
}

/** A reader that must not be called: the test fails if the file is read. */
const NEVER = (): Promise<Profiles> => {
  throw new Error('the config file was read');
};

function expectExit(fn: () => unknown, code: number): CliError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(code);
    return err as CliError;
  }
  throw new Error(`expected exit ${code}`);
}

async function expectRejects(promise: Promise<unknown>, code: number): Promise<CliError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  expect((err as CliError).exitCode).toBe(code);
  return err as CliError;
}

describe('resolveSettings: flag > env > profile > default', () => {
  it('profile: --profile beats AGENTS_PROFILE beats "default"', async () => {
    const { env, readFile } = await seeded();
    expect(await resolveSettings({}, env, readFile)).toMatchObject({
      profile: 'default',
      sources: { profile: 'default' },
    });
    const fromEnv = await resolveSettings({}, { ...env, AGENTS_PROFILE: 'work' }, readFile);
    expect(fromEnv).toMatchObject({ profile: 'work', sources: { profile: 'env' }, agent: 'codex' });
    const fromFlag = await resolveSettings(
      { profile: 'default' },
      { ...env, AGENTS_PROFILE: 'work' },
      readFile,
    );
    expect(fromFlag).toMatchObject({ profile: 'default', sources: { profile: 'flag' }, agent: 'claude' });
  });

  it('base URL: --base-url beats AGENTS_BASE_URL beats the profile; no default', async () => {
    const { env, readFile } = await seeded();
    const e = { ...env, AGENTS_BASE_URL: 'https://env.example.com' };
    expect(await resolveSettings({ baseUrl: 'https://flag.example.com' }, e, readFile)).toMatchObject({
      baseUrl: 'https://flag.example.com',
      sources: { baseUrl: 'flag' },
    });
    expect(await resolveSettings({}, e, readFile)).toMatchObject({
      baseUrl: 'https://env.example.com',
      sources: { baseUrl: 'env' },
    });
    expect(await resolveSettings({}, env, readFile)).toMatchObject({
      baseUrl: 'https://default.example.com',
      sources: { baseUrl: 'profile' },
    });
    expect(await resolveSettings({ profile: 'empty' }, env, readFile)).toMatchObject({
      baseUrl: undefined,
      sources: { baseUrl: 'default' },
    });
  });

  it('API key: AGENTS_API_KEY beats the profile; there is no flag', async () => {
    const { env, readFile } = await seeded();
    expect(await resolveSettings({}, { ...env, AGENTS_API_KEY: ENV_KEY }, readFile)).toMatchObject({
      apiKey: ENV_KEY,
      sources: { apiKey: 'env' },
    });
    expect(await resolveSettings({}, env, readFile)).toMatchObject({
      apiKey: PROFILE_KEY,
      sources: { apiKey: 'profile' },
    });
    expect(await resolveSettings({ profile: 'none' }, env, readFile)).toMatchObject({
      apiKey: undefined,
      sources: { apiKey: 'default' },
    });
  });

  it('agent: AGENTS_AGENT beats the profile', async () => {
    const { env, readFile } = await seeded();
    expect(await resolveSettings({}, { ...env, AGENTS_AGENT: 'kimi' }, readFile)).toMatchObject({
      agent: 'kimi',
      sources: { agent: 'env' },
    });
    expect(await resolveSettings({}, env, readFile)).toMatchObject({
      agent: 'claude',
      sources: { agent: 'profile' },
    });
    expect(await resolveSettings({ profile: 'none' }, env, readFile)).toMatchObject({
      agent: undefined,
      sources: { agent: 'default' },
    });
  });

  it('treats an empty environment variable as unset', async () => {
    const { env, readFile } = await seeded();
    const s = await resolveSettings(
      {},
      { ...env, AGENTS_API_KEY: '', AGENTS_BASE_URL: '', AGENTS_AGENT: '', AGENTS_PROFILE: '' },
      readFile,
    );
    expect(s).toMatchObject({ profile: 'default', apiKey: PROFILE_KEY, agent: 'claude' });
    expect(s.sources).toEqual({
      profile: 'default',
      budgetUrl: 'default',
      notify: 'default',
      apiKey: 'profile',
      baseUrl: 'profile',
      agent: 'profile',
    });
  });

  it('reads the config file it is given, once, and reports the profiles it holds', async () => {
    const { env, readFile, reads } = await seeded();
    const s = await resolveSettings({ profile: 'work' }, env, readFile);
    expect(s.agent).toBe('codex');
    expect(s.profiles).toEqual(['default', 'work']);
    expect(reads()).toBe(1);
  });

  it('rejects a bad profile name from the flag or the environment, naming the source', async () => {
    const { env, readFile } = await seeded();
    expect((await expectRejects(resolveSettings({ profile: 'a/b' }, env, readFile), 2)).message).toMatch(
      /--profile/,
    );
    expect(
      (await expectRejects(resolveSettings({}, { ...env, AGENTS_PROFILE: 'a b' }, readFile), 2)).message,
    ).toMatch(/AGENTS_PROFILE.*letters, digits/);
  });

  it('rejects an unknown agent in AGENTS_AGENT, naming the allowed ones', async () => {
    const { env, readFile } = await seeded();
    const err = await expectRejects(resolveSettings({}, { ...env, AGENTS_AGENT: 'gpt' }, readFile), 2);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/AGENTS_AGENT.*claude, codex, gemini, opencode, cursor, kimi, sisyphus/);
  });
});

describe('resolveSettings reads the config file only for a needed setting that has no flag or env value', () => {
  const ALL = { AGENTS_API_KEY: ENV_KEY, AGENTS_BASE_URL: 'https://env.example.com', AGENTS_AGENT: 'gemini' };

  it('does not read it when the environment gives every setting', async () => {
    const s = await resolveSettings({ profile: 'work' }, { AGENTS_CONFIG_DIR: freshDir(), ...ALL }, NEVER);
    expect(s).toMatchObject({
      profile: 'work',
      apiKey: ENV_KEY,
      baseUrl: 'https://env.example.com',
      agent: 'gemini',
      profiles: undefined,
      sources: { profile: 'flag', apiKey: 'env', baseUrl: 'env', agent: 'env' },
    });
  });

  it.each<[string, NodeJS.ProcessEnv, { baseUrl?: string }, SettingName[]]>([
    [
      'the key and base URL from env',
      { AGENTS_API_KEY: ENV_KEY, AGENTS_BASE_URL: 'https://e.example.com' },
      {},
      ['apiKey', 'baseUrl'],
    ],
    [
      'the key from env, the base URL from the flag',
      { AGENTS_API_KEY: ENV_KEY },
      { baseUrl: 'https://f.example.com' },
      ['apiKey', 'baseUrl'],
    ],
    ['the agent from env', { AGENTS_AGENT: 'codex' }, {}, ['agent']],
    ['the base URL from the flag', {}, { baseUrl: 'https://f.example.com' }, ['baseUrl']],
    ['nothing needed', {}, {}, []],
  ])('%s: all that is needed is given, the file is not read', async (_what, extra, globals, need) => {
    const s = await resolveSettings(globals, { AGENTS_CONFIG_DIR: freshDir(), ...extra }, NEVER, need);
    expect(s.profiles).toBeUndefined();
  });

  it('a broken file blocks only what needs it', async () => {
    const env = { AGENTS_CONFIG_DIR: freshDir() };
    const path = join(env.AGENTS_CONFIG_DIR, 'config.json');
    writeFileSync(path, '{"profiles": ');
    const { readFile, reads } = reader(env);
    const ok = await resolveSettings(
      {},
      { ...env, AGENTS_API_KEY: ENV_KEY, AGENTS_BASE_URL: 'https://e.example.com' },
      readFile,
      ['apiKey', 'baseUrl'],
    );
    expect(requireConnection(ok)).toEqual({ baseUrl: 'https://e.example.com', apiKey: ENV_KEY });
    expect(reads()).toBe(0);
    // The agent is needed too, and has no other source: the broken file is read, and named.
    const err = await expectRejects(
      resolveSettings(
        {},
        { ...env, AGENTS_API_KEY: ENV_KEY, AGENTS_BASE_URL: 'https://e.example.com' },
        readFile,
      ),
      2,
    );
    expect(err.message).toBe(`the config file ${path} is not valid JSON`);
    expect(reads()).toBe(1);
  });

  it('takes from the file only the settings it needs', async () => {
    const { env, readFile, reads } = await seeded();
    const s = await resolveSettings({}, env, readFile, ['apiKey']);
    expect(reads()).toBe(1);
    expect(s).toMatchObject({ apiKey: PROFILE_KEY, baseUrl: undefined, agent: undefined });
    expect(s.sources).toMatchObject({ apiKey: 'profile', baseUrl: 'default', agent: 'default' });
  });

  it('still takes flag and env values of settings it was not asked for, without reading the file', async () => {
    const s = await resolveSettings(
      { baseUrl: 'https://f.example.com' },
      { AGENTS_CONFIG_DIR: freshDir(), AGENTS_AGENT: 'kimi' },
      NEVER,
      [],
    );
    expect(s).toMatchObject({ baseUrl: 'https://f.example.com', agent: 'kimi', apiKey: undefined });
    expect(s.sources).toMatchObject({ baseUrl: 'flag', agent: 'env', apiKey: 'default' });
  });
});

describe('requireConnection', () => {
  it('returns the normalized base URL and the key', async () => {
    const { env, readFile } = await seeded();
    const s = await resolveSettings({ baseUrl: 'https://flag.example.com/' }, env, readFile);
    expect(requireConnection(s)).toEqual({ baseUrl: 'https://flag.example.com', apiKey: PROFILE_KEY });
  });

  it('without a base URL: exit 2 with a hint', async () => {
    const env = { AGENTS_CONFIG_DIR: freshDir(), AGENTS_API_KEY: ENV_KEY };
    const s = await resolveSettings({}, env, reader(env).readFile);
    const err = expectExit(() => requireConnection(s), 2);
    expect(err.message).toBe('no base URL is configured');
    expect(err.hint).toMatch(/agents login.*--base-url.*AGENTS_BASE_URL/);
  });

  it('without a key: exit 3 pointing to login and AGENTS_API_KEY', async () => {
    const env = { AGENTS_CONFIG_DIR: freshDir(), AGENTS_BASE_URL: 'https://x.example.com' };
    await openConfigFile(env).set('work', 'agent', 'codex');
    const s = await resolveSettings({ profile: 'work' }, env, reader(env).readFile);
    const err = expectExit(() => requireConnection(s), 3);
    expect(err.message).toBe('no API key for profile "work"');
    expect(err.hint).toMatch(/agents login --profile work.*AGENTS_API_KEY/);
  });

  it('validates a base URL from the flag or the environment like a config value', async () => {
    const { env, readFile } = await seeded();
    const fromFlag = await resolveSettings({ baseUrl: 'example.com' }, env, readFile);
    expect(expectExit(() => requireConnection(fromFlag), 2).message).toMatch(
      /--base-url.*absolute http:\/\/ or https:\/\//,
    );
    const fromEnv = await resolveSettings(
      {},
      { ...env, AGENTS_BASE_URL: 'https://u:p@x.example.com' },
      readFile,
    );
    expect(expectExit(() => requireConnection(fromEnv), 2).message).toMatch(/AGENTS_BASE_URL.*password/);
  });

  it('validates a key from the environment without showing it', async () => {
    const { env, readFile } = await seeded();
    const s = await resolveSettings({}, { ...env, AGENTS_API_KEY: 'sk-secret\r\nX: y' }, readFile);
    const err = expectExit(() => requireConnection(s), 2);
    expect(err.message).toMatch(/AGENTS_API_KEY/);
    expect(err.message).not.toContain('secret');
  });

  it('passes the plain-http warning to its caller', async () => {
    const { env, readFile } = await seeded();
    const warnings: string[] = [];
    requireConnection(await resolveSettings({ baseUrl: 'http://agents.example.com' }, env, readFile), (w) =>
      warnings.push(w),
    );
    requireConnection(await resolveSettings({ baseUrl: 'http://localhost:4010' }, env, readFile), (w) =>
      warnings.push(w),
    );
    expect(warnings).toEqual([expect.stringMatching(/agents\.example\.com.*clear text/)]);
  });
});

describe('requireConnection: a profile named on purpose that the file lacks', () => {
  it('--profile: a usage error naming the known profiles and how to create it', async () => {
    const { env, readFile } = await seeded();
    const s = await resolveSettings({ profile: 'nope' }, env, readFile);
    const err = expectExit(() => requireConnection(s), 2);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe('no profile "nope" (from --profile) in the config file; known: default, work');
    expect(err.hint).toBe('create it with: agents login --profile nope');
  });

  it('AGENTS_PROFILE, and a file with no profiles yet', async () => {
    const env = { AGENTS_CONFIG_DIR: freshDir(), AGENTS_PROFILE: 'ci' };
    const s = await resolveSettings({}, env, reader(env).readFile);
    const err = expectExit(() => requireConnection(s), 2);
    expect(err.message).toBe('no profile "ci" (from AGENTS_PROFILE) in the config file; there are none yet');
    expect(err.hint).toBe('create it with: agents login --profile ci');
  });

  it('is no error when the flags and the environment give the connection (the file is not read)', async () => {
    const env = {
      AGENTS_CONFIG_DIR: freshDir(),
      AGENTS_API_KEY: ENV_KEY,
      AGENTS_BASE_URL: 'https://e.example.com',
    };
    const s = await resolveSettings({ profile: 'nope' }, env, NEVER, ['apiKey', 'baseUrl']);
    expect(requireConnection(s)).toEqual({ baseUrl: 'https://e.example.com', apiKey: ENV_KEY });
  });

  it('the default profile missing is the plain "no base URL" error, not an unknown profile', async () => {
    const env = { AGENTS_CONFIG_DIR: freshDir() };
    await openConfigFile(env).set('work', 'agent', 'codex');
    const s = await resolveSettings({}, env, reader(env).readFile);
    expect(expectExit(() => requireConnection(s), 2).message).toBe('no base URL is configured');
  });
});
