import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors/cli-error.js';
import {
  isLoopbackHost,
  validateAgent,
  validateApiKey,
  validateBaseUrl,
  validateConfigKey,
  validateConfigValue,
  validateProfileName,
} from '../../src/core/config/validators.js';

/** Runs `fn`, expects a UsageError (exit 2), returns its message. */
function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    return (err as UsageError).message;
  }
  throw new Error('expected a UsageError');
}

describe('validateBaseUrl', () => {
  it.each([
    ['https://agents.example.com', 'https://agents.example.com'],
    ['https://agents.example.com/', 'https://agents.example.com'],
    ['HTTPS://Agents.Example.COM:443/', 'https://agents.example.com'],
    ['https://example.com/prefix/', 'https://example.com/prefix'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['  https://example.com  ', 'https://example.com'],
  ])('accepts %s as %s', (input, normalized) => {
    expect(validateBaseUrl(input).value).toBe(normalized);
  });

  it.each([
    ['relative path', '/rest'],
    ['host without scheme', 'agents.example.com'],
    ['host:port without scheme', 'localhost:4010'],
    ['garbage', 'not a url at all'],
    ['empty', ''],
    ['ftp', 'ftp://example.com'],
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
  ])('rejects a %s, naming what is allowed', (_what, input) => {
    expect(usage(() => validateBaseUrl(input))).toMatch(/http:\/\/ or https:\/\//);
  });

  it('rejects credentials in the URL without echoing them', () => {
    const message = usage(() => validateBaseUrl('https://user:s3cret-pass@example.com'));
    expect(message).toMatch(/user name or password/);
    expect(message).not.toContain('s3cret-pass');
    expect(usage(() => validateBaseUrl('https://only-user@example.com'))).toMatch(/user name/);
  });

  it('rejects a query, a fragment and the /rest/v1 suffix', () => {
    expect(usage(() => validateBaseUrl('https://example.com/?a=1'))).toMatch(/query/);
    expect(usage(() => validateBaseUrl('https://example.com/?'))).toMatch(/query/);
    expect(usage(() => validateBaseUrl('https://example.com/#top'))).toMatch(/fragment/);
    expect(usage(() => validateBaseUrl('https://example.com/rest/v1/'))).toMatch(/\/rest\/v1/);
  });

  it('names the source in its message', () => {
    expect(usage(() => validateBaseUrl('ftp://x', 'AGENTS_BASE_URL'))).toMatch(/^AGENTS_BASE_URL /);
  });

  it('warns about plain http to a host that is not loopback, and only then', () => {
    expect(validateBaseUrl('http://agents.example.com').warning).toMatch(/clear text/);
    expect(validateBaseUrl('http://10.0.0.5:8080').warning).toMatch(/clear text/);
    expect(validateBaseUrl('https://agents.example.com').warning).toBeUndefined();
    expect(validateBaseUrl('http://localhost:4010').warning).toBeUndefined();
    expect(validateBaseUrl('http://127.0.0.1:4010').warning).toBeUndefined();
    expect(validateBaseUrl('http://[::1]:4010').warning).toBeUndefined();
  });
});

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'api.localhost',
    '127.0.0.1',
    '127.1.2.3',
    '[::1]',
    '::1',
    '[::ffff:7f00:1]',
  ])('%s is loopback', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each([
    'example.com',
    'localhost.example.com',
    '10.0.0.1',
    '128.0.0.1',
    '[::2]',
    '0.0.0.0',
    '127.0.0.1.nip.io',
  ])('%s is not', (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe('validateAgent', () => {
  it('accepts the six core agents', () => {
    for (const a of ['claude', 'codex', 'gemini', 'opencode', 'cursor', 'kimi'])
      expect(validateAgent(a)).toBe(a);
  });
  it.each(['Claude', 'gpt', '', ' claude'])('rejects %j, naming the allowed ones', (name) => {
    expect(usage(() => validateAgent(name))).toMatch(
      /use one of claude, codex, gemini, opencode, cursor, kimi/,
    );
  });
});

describe('validateProfileName', () => {
  it.each(['default', 'work', 'Team_2', 'a-b', 'x'.repeat(64)])('accepts %s', (name) => {
    expect(validateProfileName(name)).toBe(name);
  });
  it.each(['', 'a b', 'a.b', 'a/b', '../x', 'x'.repeat(65), 'é', '__proto__', 'constructor'])(
    'rejects %j, naming what is allowed',
    (name) => {
      expect(usage(() => validateProfileName(name))).toMatch(/letters, digits, "-" or "_"/);
    },
  );
});

describe('validateConfigKey', () => {
  it('accepts the three keys', () => {
    expect(['api-key', 'base-url', 'agent'].map(validateConfigKey)).toEqual(['api-key', 'base-url', 'agent']);
  });
  it.each(['apikey', 'api_key', 'baseUrl', 'profile', ''])('rejects %j, naming the allowed keys', (key) => {
    expect(usage(() => validateConfigKey(key))).toMatch(/use one of api-key, base-url, agent/);
  });
});

describe('validateApiKey', () => {
  it('accepts a visible-ASCII key', () => {
    expect(validateApiKey('sk-live_ABC.123/+=')).toBe('sk-live_ABC.123/+=');
  });
  it('rejects empty, spaced and multi-line keys without showing them', () => {
    expect(usage(() => validateApiKey(''))).toMatch(/empty/);
    for (const bad of ['sk secret', 'sk-secret\nX-Evil: 1', 'sk-secret\t', 'sk-sécret']) {
      const message = usage(() => validateApiKey(bad));
      expect(message).not.toContain('secret');
    }
  });
});

describe('validateConfigValue', () => {
  it('dispatches on the key and normalizes base URLs', () => {
    expect(validateConfigValue('base-url', 'https://x.example/').value).toBe('https://x.example');
    expect(validateConfigValue('agent', 'kimi').value).toBe('kimi');
    expect(validateConfigValue('api-key', 'k-123').value).toBe('k-123');
    expect(validateConfigValue('base-url', 'http://x.example').warning).toMatch(/clear text/);
    expect(() => validateConfigValue('agent', 'x')).toThrow(UsageError);
  });
});
