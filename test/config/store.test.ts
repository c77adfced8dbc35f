import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, UsageError } from '../../src/errors.js';
import { openConfig } from '../../src/config/store.js';
import { readConfig } from '../../src/config/read.js';
import { freshDir } from './helpers.js';

const KEY = 'sk-live-0123456789abcdefXYZ9876';

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

function open(dir = freshDir()) {
  return openConfig({ AGENTS_CONFIG_DIR: dir });
}

describe('openConfig', () => {
  it('lives in AGENTS_CONFIG_DIR and creates nothing until a write', () => {
    const dir = freshDir();
    const store = open(dir);
    expect(store.path).toBe(join(dir, 'config.json'));
    expect(store.profiles()).toEqual([]);
    expect(store.get('default', 'base-url')).toBeUndefined();
    expect(existsSync(store.path)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'defaults to $XDG_CONFIG_HOME/agents, where conf writes too, made 0700',
    () => {
      const xdg = freshDir();
      const saved = process.env.XDG_CONFIG_HOME;
      process.env.XDG_CONFIG_HOME = xdg;
      try {
        const env = { XDG_CONFIG_HOME: xdg };
        const store = openConfig(env);
        expect(store.path).toBe(join(xdg, 'agents', 'config.json'));
        // The write goes through conf, which refuses to write anywhere but the path read.ts reads.
        store.set('default', 'agent', 'claude');
        expect(readConfig(env).get('default', 'agent')).toBe('claude');
        expect(mode(join(xdg, 'agents'))).toBe(0o700);
      } finally {
        if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
        else process.env.XDG_CONFIG_HOME = saved;
      }
    },
  );

  it('creates a missing config directory with mode 0700', () => {
    const dir = join(freshDir(), 'nested', 'agents');
    const store = open(dir);
    store.set('default', 'agent', 'claude');
    expect(mode(dir)).toBe(0o700);
  });

  it('writes the file with mode 0600', () => {
    const store = open();
    store.set('default', 'api-key', KEY);
    expect(mode(store.path)).toBe(0o600);
  });

  it('brings a pre-existing 0644 file back to 0600 on the next write', () => {
    const dir = freshDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify({ profiles: { default: { agent: 'codex' } } }));
    chmodSync(path, 0o644);
    const store = open(dir);
    expect(store.get('default', 'agent')).toBe('codex');
    store.set('default', 'api-key', KEY);
    expect(mode(path)).toBe(0o600);
    expect(store.profile('default')).toEqual({ agent: 'codex', 'api-key': KEY });
  });

  it("re-chmods after conf writes in place (its SNAP path keeps an existing file's mode)", () => {
    const dir = freshDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{}');
    chmodSync(path, 0o644);
    const saved = process.env.SNAP;
    process.env.SNAP = '1';
    try {
      open(dir).set('default', 'api-key', KEY);
    } finally {
      if (saved === undefined) delete process.env.SNAP;
      else process.env.SNAP = saved;
    }
    expect(mode(path)).toBe(0o600);
  });

  it('keeps profiles side by side', () => {
    const store = open();
    store.set('default', 'base-url', 'https://one.example.com/');
    store.set('work', 'base-url', 'https://two.example.com');
    store.set('work', 'agent', 'gemini');
    expect(store.profile('default')).toEqual({ 'base-url': 'https://one.example.com' });
    expect(store.profile('work')).toEqual({ 'base-url': 'https://two.example.com', agent: 'gemini' });
    expect(store.profiles()).toEqual(['default', 'work']);
    // A second opening reads the same file.
    expect(openConfig({ AGENTS_CONFIG_DIR: store.path.replace(/\/config\.json$/, '') }).profiles()).toEqual([
      'default',
      'work',
    ]);
  });

  it('unsets a key, drops an emptied profile, and is idempotent', () => {
    const store = open();
    store.set('work', 'agent', 'kimi');
    store.set('work', 'api-key', KEY);
    store.unset('work', 'api-key');
    expect(store.profile('work')).toEqual({ agent: 'kimi' });
    store.unset('work', 'api-key');
    store.unset('work', 'agent');
    expect(store.profiles()).toEqual([]);
    store.unset('nobody', 'agent');
  });

  it('validates every value before anything is written', () => {
    const store = open();
    expect(() => store.set('default', 'base-url', 'ftp://example.com')).toThrow(UsageError);
    expect(() => store.set('default', 'agent', 'gpt')).toThrow(UsageError);
    expect(() => store.set('default', 'api-key', 'two words')).toThrow(UsageError);
    expect(() => store.set('bad name', 'agent', 'claude')).toThrow(UsageError);
    expect(() => store.set('__proto__', 'agent', 'claude')).toThrow(UsageError);
    expect(existsSync(store.path)).toBe(false);
  });

  it('reports a broken file as one line that shows none of its text', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), `{"profiles": {"default": {"api-key": "${KEY}"`);
    let error: unknown;
    try {
      open(dir).profiles();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as CliError).message).toMatch(/config\.json is not valid JSON/);
    expect((error as CliError).message).not.toContain(KEY.slice(0, 8));
    // Nothing was cleared: the user can still fix it by hand.
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain(KEY);
  });

  it.each([
    ['an unknown agent', { profiles: { default: { agent: 'gpt' } } }, /agent` must be one of claude/],
    ['an unknown key', { profiles: { default: { base_url: 'x' } } }, /unknown key \(allowed: api-key/],
    ['a bad profile name', { profiles: { 'a b': {} } }, /profile name/],
    ['a number for a key', { profiles: { default: { 'api-key': 42 } } }, /must be a non-empty string/],
    ['an array', [], /top level/],
  ])('reports a file with %s, on read and before any write', (_what, content, reason) => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify(content));
    const store = open(dir);
    expect(() => store.profile('default')).toThrow(reason);
    expect(() => readConfig({ AGENTS_CONFIG_DIR: dir }).profiles()).toThrow(
      /does not have the expected shape/,
    );
    expect(() => store.set('default', 'agent', 'claude')).toThrow(CliError);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual(content);
  });
});
