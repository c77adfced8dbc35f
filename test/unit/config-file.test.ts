import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, UsageError } from '../../src/core/errors/cli-error.js';
import Conf from 'conf';
import { SCHEMA, openConfigFile, profileOf } from '../../src/core/config/config-file.js';
import { configPath } from '../../src/core/config/locations.js';
import { freshDir } from '../support/config.js';

const KEY = 'sk-live-0123456789abcdefXYZ9876';

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

function open(dir = freshDir()) {
  return openConfigFile({ AGENTS_CONFIG_DIR: dir });
}

/** One profile as the file holds it now. */
async function profile(store: ReturnType<typeof open>, name = 'default') {
  return profileOf(await store.profiles(), name);
}

/** What `promise` rejected with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
}

describe('openConfigFile', () => {
  it('lives in AGENTS_CONFIG_DIR and creates nothing until a write', async () => {
    const dir = join(freshDir(), 'not-yet');
    const store = open(dir);
    expect(store.path).toBe(join(dir, 'config.json'));
    expect(store.path).toBe(configPath({ AGENTS_CONFIG_DIR: dir }));
    expect(await store.profiles()).toEqual({});
    expect((await profile(store))['base-url']).toBeUndefined();
    expect(existsSync(store.path)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'defaults to $XDG_CONFIG_HOME/agents, where conf writes too, made 0700',
    async () => {
      const xdg = freshDir();
      const saved = process.env.XDG_CONFIG_HOME;
      process.env.XDG_CONFIG_HOME = xdg;
      try {
        const env = { XDG_CONFIG_HOME: xdg };
        const store = openConfigFile(env);
        expect(store.path).toBe(join(xdg, 'agents', 'config.json'));
        // The write goes through conf, which refuses to write anywhere but the path the store reads.
        await store.set('default', 'agent', 'claude');
        expect(existsSync(join(xdg, 'agents', 'config.json'))).toBe(true);
        expect(await profile(openConfigFile(env))).toEqual({ agent: 'claude' });
        expect(mode(join(xdg, 'agents'))).toBe(0o700);
      } finally {
        if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
        else process.env.XDG_CONFIG_HOME = saved;
      }
    },
  );

  it('creates a missing config directory with mode 0700', async () => {
    const dir = join(freshDir(), 'nested', 'agents');
    const store = open(dir);
    await store.set('default', 'agent', 'claude');
    expect(mode(dir)).toBe(0o700);
  });

  it('writes the file with mode 0600', async () => {
    const store = open();
    await store.set('default', 'api-key', KEY);
    expect(mode(store.path)).toBe(0o600);
  });

  it('brings a pre-existing 0644 file back to 0600 on the next write', async () => {
    const dir = freshDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify({ profiles: { default: { agent: 'codex' } } }));
    chmodSync(path, 0o644);
    const store = open(dir);
    expect((await profile(store)).agent).toBe('codex');
    await store.set('default', 'api-key', KEY);
    expect(mode(path)).toBe(0o600);
    expect(await profile(store)).toEqual({ agent: 'codex', 'api-key': KEY });
  });

  it("re-chmods after conf writes in place (its SNAP path keeps an existing file's mode)", async () => {
    const dir = freshDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{}');
    chmodSync(path, 0o644);
    const saved = process.env.SNAP;
    process.env.SNAP = '1';
    try {
      await open(dir).set('default', 'api-key', KEY);
    } finally {
      if (saved === undefined) delete process.env.SNAP;
      else process.env.SNAP = saved;
    }
    expect(mode(path)).toBe(0o600);
    expect(await profile(open(dir))).toEqual({ 'api-key': KEY });
  });

  it('keeps profiles side by side', async () => {
    const store = open();
    await store.set('default', 'base-url', 'https://one.example.com/');
    await store.set('work', 'base-url', 'https://two.example.com');
    await store.set('work', 'agent', 'gemini');
    expect(await profile(store)).toEqual({ 'base-url': 'https://one.example.com' });
    expect(await profile(store, 'work')).toEqual({ 'base-url': 'https://two.example.com', agent: 'gemini' });
    expect(Object.keys(await store.profiles()).sort()).toEqual(['default', 'work']);
    // A second opening reads the same file.
    const again = openConfigFile({ AGENTS_CONFIG_DIR: store.path.replace(/\/config\.json$/, '') });
    expect(await again.profiles()).toEqual({
      default: { 'base-url': 'https://one.example.com' },
      work: { 'base-url': 'https://two.example.com', agent: 'gemini' },
    });
  });

  it('unsets a key, drops an emptied profile, and is idempotent', async () => {
    const store = open();
    await store.set('work', 'agent', 'kimi');
    await store.set('work', 'api-key', KEY);
    expect(await store.unset('work', 'api-key')).toBe(true);
    expect(await profile(store, 'work')).toEqual({ agent: 'kimi' });
    expect(await store.unset('work', 'api-key')).toBe(false);
    expect(await store.unset('work', 'agent')).toBe(true);
    expect(await store.profiles()).toEqual({});
    expect(await store.unset('nobody', 'agent')).toBe(false);
  });

  it('unset of a key that is not set writes nothing (no file is made)', async () => {
    const dir = join(freshDir(), 'agents');
    expect(await open(dir).unset('default', 'agent')).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it('profile names are own properties only: none reaches the prototype', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"toString": {"agent": "codex"}}}');
    const profiles = await open(dir).profiles();
    expect(Object.getPrototypeOf(profiles)).toBe(Object.prototype);
    expect(profileOf(profiles, 'toString')).toEqual({ agent: 'codex' });
    expect(profileOf(profiles, 'hasOwnProperty')).toEqual({});
  });

  it('validates every value before anything is written', async () => {
    const store = open();
    await expect(store.set('default', 'base-url', 'ftp://example.com')).rejects.toThrow(UsageError);
    await expect(store.set('default', 'agent', 'gpt')).rejects.toThrow(UsageError);
    await expect(store.set('default', 'api-key', 'two words')).rejects.toThrow(UsageError);
    await expect(store.set('bad name', 'agent', 'claude')).rejects.toThrow(UsageError);
    await expect(store.set('__proto__', 'agent', 'claude')).rejects.toThrow(UsageError);
    await expect(store.unset('a/b', 'agent')).rejects.toThrow(UsageError);
    expect(existsSync(store.path)).toBe(false);
  });

  it('reports a broken file as one line that shows none of its text', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), `{"profiles": {"default": {"api-key": "${KEY}"`);
    for (const attempt of [open(dir).profiles(), open(dir).set('default', 'agent', 'claude')]) {
      const error = await rejection(attempt);
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
      expect((error as CliError).message).toBe(
        `the config file ${join(dir, 'config.json')} is not valid JSON`,
      );
      expect((error as CliError).message).not.toContain(KEY.slice(0, 8));
      expect((error as CliError).hint).toMatch(/fix it by hand, or delete it/);
    }
    // Nothing was cleared: the user can still fix it by hand.
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain(KEY);
  });

  // Writes tell ajv not to check SCHEMA against JSON Schema's meta-schema (compiling that is most of a
  // `config set`). This is that check, made once: conf's default checks the schema it is given.
  it('has a schema that JSON Schema itself accepts', () => {
    expect(() => new Conf({ cwd: freshDir(), schema: SCHEMA })).not.toThrow();
    const broken = { profiles: { ...SCHEMA.profiles, type: 'no-such-type' } };
    expect(() => new Conf({ cwd: freshDir(), schema: broken })).toThrow(/schema is invalid/);
  });

  // Reads skip the schema: unknown keys and values of the wrong type are left out, a value is judged where a
  // setting is read (settings.ts); a top level that is no object is broken. Writes go through conf's schema,
  // so a file of the wrong shape is refused before anything is written, and left as it was.
  it.each([
    [
      'an unknown agent',
      { profiles: { default: { agent: 'gpt' } } },
      { default: { agent: 'gpt' } },
      /`profiles\/default\/agent` must be equal to one of the allowed values/,
    ],
    [
      'an unknown key',
      { profiles: { default: { base_url: 'x', agent: 'codex' } } },
      { default: { agent: 'codex' } },
      /`profiles\/default` must NOT have additional properties/,
    ],
    ['a bad profile name', { profiles: { 'a b': {} } }, { 'a b': {} }, /`profiles` must match pattern/],
    [
      'a number for a key',
      { profiles: { default: { 'api-key': 42 } } },
      { default: {} },
      /`profiles\/default\/api-key` must be string/,
    ],
    ['an array', [], /expected shape: the top level must be an object/, /top level must be an object/],
    [
      'profiles an array',
      { profiles: [] },
      /expected shape: `profiles` must be an object/,
      /`profiles` must be object/,
    ],
    [
      'a profile that is no object',
      { profiles: { default: 'x' } },
      /expected shape: `profiles\/default` must be an object/,
      /`profiles\/default` must be object/,
    ],
  ])(
    'a file with %s: what a read gives, and refused before any write',
    async (_what, content, onRead, onWrite) => {
      const dir = freshDir();
      const path = join(dir, 'config.json');
      writeFileSync(path, JSON.stringify(content));
      const store = open(dir);
      if (onRead instanceof RegExp) {
        const err = await rejection(store.profiles());
        expect(err).toBeInstanceOf(CliError);
        expect((err as CliError).exitCode).toBe(2);
        expect((err as CliError).message).toMatch(onRead);
        expect((err as CliError).message).toContain(path);
      } else {
        expect(await store.profiles()).toEqual(onRead);
      }
      const err = await rejection(store.set('default', 'agent', 'claude'));
      expect(err).toBeInstanceOf(CliError);
      expect((err as CliError).exitCode).toBe(2);
      expect((err as CliError).message).toMatch(/does not have the expected shape/);
      expect((err as CliError).message).toMatch(onWrite);
      expect((err as CliError).message).toContain(path);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(content);
    },
  );
});
