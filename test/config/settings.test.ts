import { describe, expect, it } from 'vitest';
import { CliError, UsageError } from '../../src/errors.js';
import { openConfig, type ConfigStore } from '../../src/config/store.js';
import { requireConnection, resolveSettings } from '../../src/config/settings.js';
import { freshDir } from './helpers.js';

const PROFILE_KEY = 'sk-profile-key-0000000000001';
const ENV_KEY = 'sk-env-key-000000000000000002';

/** A store with `default` and `work` profiles filled in. */
function seeded(): { store: ConfigStore; env: NodeJS.ProcessEnv } {
  const env = { AGENTS_CONFIG_DIR: freshDir() };
  const store = openConfig(env);
  store.set('default', 'api-key', PROFILE_KEY);
  store.set('default', 'base-url', 'https://default.example.com');
  store.set('default', 'agent', 'claude');
  store.set('work', 'api-key', 'sk-work-key-0000000000000003');
  store.set('work', 'base-url', 'https://work.example.com');
  store.set('work', 'agent', 'codex');
  return { store, env };
}

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

describe('resolveSettings: flag > env > profile > default', () => {
  it('profile: --profile beats AGENTS_PROFILE beats "default"', () => {
    const { store, env } = seeded();
    expect(resolveSettings({}, env, store)).toMatchObject({
      profile: 'default',
      sources: { profile: 'default' },
    });
    const fromEnv = resolveSettings({}, { ...env, AGENTS_PROFILE: 'work' }, store);
    expect(fromEnv).toMatchObject({ profile: 'work', sources: { profile: 'env' }, agent: 'codex' });
    const fromFlag = resolveSettings({ profile: 'default' }, { ...env, AGENTS_PROFILE: 'work' }, store);
    expect(fromFlag).toMatchObject({ profile: 'default', sources: { profile: 'flag' }, agent: 'claude' });
  });

  it('base URL: --base-url beats AGENTS_BASE_URL beats the profile; no default', () => {
    const { store, env } = seeded();
    const e = { ...env, AGENTS_BASE_URL: 'https://env.example.com' };
    expect(resolveSettings({ baseUrl: 'https://flag.example.com' }, e, store)).toMatchObject({
      baseUrl: 'https://flag.example.com',
      sources: { baseUrl: 'flag' },
    });
    expect(resolveSettings({}, e, store)).toMatchObject({
      baseUrl: 'https://env.example.com',
      sources: { baseUrl: 'env' },
    });
    expect(resolveSettings({}, env, store)).toMatchObject({
      baseUrl: 'https://default.example.com',
      sources: { baseUrl: 'profile' },
    });
    expect(resolveSettings({ profile: 'empty' }, env, store)).toMatchObject({
      baseUrl: undefined,
      sources: { baseUrl: 'default' },
    });
  });

  it('API key: AGENTS_API_KEY beats the profile; there is no flag', () => {
    const { store, env } = seeded();
    expect(resolveSettings({}, { ...env, AGENTS_API_KEY: ENV_KEY }, store)).toMatchObject({
      apiKey: ENV_KEY,
      sources: { apiKey: 'env' },
    });
    expect(resolveSettings({}, env, store)).toMatchObject({
      apiKey: PROFILE_KEY,
      sources: { apiKey: 'profile' },
    });
    expect(resolveSettings({ profile: 'none' }, env, store)).toMatchObject({
      apiKey: undefined,
      sources: { apiKey: 'default' },
    });
  });

  it('agent: AGENTS_AGENT beats the profile', () => {
    const { store, env } = seeded();
    expect(resolveSettings({}, { ...env, AGENTS_AGENT: 'kimi' }, store)).toMatchObject({
      agent: 'kimi',
      sources: { agent: 'env' },
    });
    expect(resolveSettings({}, env, store)).toMatchObject({ agent: 'claude', sources: { agent: 'profile' } });
    expect(resolveSettings({ profile: 'none' }, env, store)).toMatchObject({
      agent: undefined,
      sources: { agent: 'default' },
    });
  });

  it('treats an empty environment variable as unset', () => {
    const { store, env } = seeded();
    const s = resolveSettings(
      {},
      { ...env, AGENTS_API_KEY: '', AGENTS_BASE_URL: '', AGENTS_AGENT: '', AGENTS_PROFILE: '' },
      store,
    );
    expect(s).toMatchObject({ profile: 'default', apiKey: PROFILE_KEY, agent: 'claude' });
    expect(s.sources).toEqual({
      profile: 'default',
      apiKey: 'profile',
      baseUrl: 'profile',
      agent: 'profile',
    });
  });

  it('opens the store of AGENTS_CONFIG_DIR when none is given', () => {
    const { env } = seeded();
    expect(resolveSettings({ profile: 'work' }, env).agent).toBe('codex');
  });

  it('rejects a bad profile name from the flag or the environment, naming the source', () => {
    const { store, env } = seeded();
    expect(expectExit(() => resolveSettings({ profile: 'a/b' }, env, store), 2).message).toMatch(/--profile/);
    expect(
      expectExit(() => resolveSettings({}, { ...env, AGENTS_PROFILE: 'a b' }, store), 2).message,
    ).toMatch(/AGENTS_PROFILE.*letters, digits/);
  });

  it('rejects an unknown agent in AGENTS_AGENT, naming the allowed ones', () => {
    const { store, env } = seeded();
    const err = expectExit(() => resolveSettings({}, { ...env, AGENTS_AGENT: 'gpt' }, store), 2);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/AGENTS_AGENT.*claude, codex, gemini, opencode, cursor, kimi/);
  });
});

describe('requireConnection', () => {
  it('returns the normalized base URL and the key', () => {
    const { store, env } = seeded();
    const s = resolveSettings({ baseUrl: 'https://flag.example.com/' }, env, store);
    expect(requireConnection(s)).toEqual({ baseUrl: 'https://flag.example.com', apiKey: PROFILE_KEY });
  });

  it('without a base URL: exit 2 with a hint', () => {
    const env = { AGENTS_CONFIG_DIR: freshDir(), AGENTS_API_KEY: ENV_KEY };
    const err = expectExit(() => requireConnection(resolveSettings({}, env)), 2);
    expect(err.hint).toMatch(/agents login.*--base-url.*AGENTS_BASE_URL/);
  });

  it('without a key: exit 3 pointing to login and AGENTS_API_KEY', () => {
    const env = { AGENTS_CONFIG_DIR: freshDir(), AGENTS_BASE_URL: 'https://x.example.com' };
    const err = expectExit(() => requireConnection(resolveSettings({ profile: 'work' }, env)), 3);
    expect(err.hint).toMatch(/agents login --profile work.*AGENTS_API_KEY/);
  });

  it('validates a base URL from the flag or the environment like a config value', () => {
    const { store, env } = seeded();
    const fromFlag = resolveSettings({ baseUrl: 'example.com' }, env, store);
    expect(expectExit(() => requireConnection(fromFlag), 2).message).toMatch(
      /--base-url.*absolute http:\/\/ or https:\/\//,
    );
    const fromEnv = resolveSettings({}, { ...env, AGENTS_BASE_URL: 'https://u:p@x.example.com' }, store);
    expect(expectExit(() => requireConnection(fromEnv), 2).message).toMatch(/AGENTS_BASE_URL.*password/);
  });

  it('validates a key from the environment without showing it', () => {
    const { store, env } = seeded();
    const s = resolveSettings({}, { ...env, AGENTS_API_KEY: 'sk-secret\r\nX: y' }, store);
    const err = expectExit(() => requireConnection(s), 2);
    expect(err.message).toMatch(/AGENTS_API_KEY/);
    expect(err.message).not.toContain('secret');
  });

  it('passes the plain-http warning to its caller', () => {
    const { store, env } = seeded();
    const warnings: string[] = [];
    requireConnection(resolveSettings({ baseUrl: 'http://agents.example.com' }, env, store), (w) =>
      warnings.push(w),
    );
    requireConnection(resolveSettings({ baseUrl: 'http://localhost:4010' }, env, store), (w) =>
      warnings.push(w),
    );
    expect(warnings).toEqual([expect.stringMatching(/agents\.example\.com.*clear text/)]);
  });
});
