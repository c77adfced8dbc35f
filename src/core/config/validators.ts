// One judge of a value wherever it comes from. Usage errors (exit 2) name what is allowed and never echo a
// base URL or a key back: either may hold a secret pasted in the wrong place.
import { CORE_AGENTS, type CoreAgent } from '../api/types.js';
import { UsageError } from '../errors/cli-error.js';
import { isLoopbackHost } from '../../util/loopback.js';
import { validateNotify } from './notify-setting.js';

export const CONFIG_KEYS = ['api-key', 'base-url', 'agent', 'budget-url', 'notify'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

const PROFILE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
// Names a plain JS object treats specially; a profile called so could reach the prototype.
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Quotes a short identifier for an error message; long input is left out (it may be a pasted key). */
function shown(value: string): string {
  return value.length <= 32 ? JSON.stringify(value) : '(a value of ' + String(value.length) + ' characters)';
}

export function validateConfigKey(key: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(key)) return key as ConfigKey;
  throw new UsageError(`unknown config key ${shown(key)}: use one of ${CONFIG_KEYS.join(', ')}`);
}

export { isLoopbackHost } from '../../util/loopback.js';

/** Normalized, and a warning when it would carry the key in clear. The client adds `/rest/v1` itself. */
export function validateBaseUrl(
  input: string,
  where = 'base URL',
): { value: string; warning: string | undefined } {
  const allowed = 'an absolute http:// or https:// URL such as https://agents.example.com';
  const url = URL.parse(input.trim());
  if (url === null) throw new UsageError(`${where} is not a valid URL: use ${allowed}`);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(input.trim()))
    throw new UsageError(`${where} is not an absolute URL: use ${allowed}`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`${where} must use http:// or https://, not ${url.protocol}//: use ${allowed}`);
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      `${where} must not contain a user name or password`,
      'the API key is stored with `agents login`, never in the URL',
    );
  }
  if (url.search !== '' || input.includes('?'))
    throw new UsageError(`${where} must not have a query string (?…): use ${allowed}`);
  if (url.hash !== '' || input.includes('#'))
    throw new UsageError(`${where} must not have a fragment (#…): use ${allowed}`);
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/rest\/v1$/i.test(path)) {
    throw new UsageError(
      `${where} must not end with /rest/v1: give the address without it (the CLI adds it)`,
    );
  }
  const value = `${url.origin}${path}`;
  const warning =
    url.protocol === 'http:' && !isLoopbackHost(url.hostname)
      ? `${value} uses plain http://: the API key would travel in clear text; use https://`
      : undefined;
  return { value, warning };
}

export function validateAgent(input: string, where = 'agent'): CoreAgent {
  if ((CORE_AGENTS as readonly string[]).includes(input)) return input as CoreAgent;
  throw new UsageError(`unknown ${where} ${shown(input)}: use one of ${CORE_AGENTS.join(', ')}`);
}

export function validateProfileName(input: string, where = 'profile name'): string {
  if (PROFILE_NAME.test(input) && !RESERVED_NAMES.has(input)) return input;
  throw new UsageError(`invalid ${where} ${shown(input)}: use 1 to 64 letters, digits, "-" or "_"`);
}

/** Visible ASCII only, what fits in a header without encoding (a newline would split it). */
export function validateApiKey(input: string, where = 'API key'): string {
  if (input === '') throw new UsageError(`${where} is empty`);
  if (input.length > 4096) throw new UsageError(`${where} is too long (more than 4096 characters)`);
  if (!/^[\x21-\x7e]+$/.test(input))
    throw new UsageError(`${where} must be visible ASCII characters, without spaces or line breaks`);
  return input;
}

/** The value to store for `key`, and any warning to show. */
export function validateConfigValue(key: ConfigKey, value: string): { value: string; warning?: string } {
  if (key === 'base-url') {
    const checked = validateBaseUrl(value);
    return checked.warning ? checked : { value: checked.value };
  }
  const validate = {
    'api-key': validateApiKey,
    agent: validateAgent,
    'budget-url': validateBudgetUrl,
    notify: validateNotify,
  };
  return { value: validate[key](value) };
}

/** A Redis for the key's budget: `redis://[user:password@]host[:port][/db]` or `rediss://`; never echoed. */
export function validateBudgetUrl(input: string, where = 'budget URL'): string {
  const url = URL.parse(input.trim());
  if (url === null)
    throw new UsageError(`${where} is not a URL`, 'use redis://[user:password@]host:port[/db] or rediss://…');
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new UsageError(`${where} must be a redis:// or rediss:// address`, 'e.g. redis://localhost:6379');
  if (url.hostname === '') throw new UsageError(`${where} names no host`, 'e.g. redis://localhost:6379');
  if (!/^(\/\d{0,2})?$/.test(url.pathname))
    throw new UsageError(`${where} has a path that is no database number`, 'e.g. redis://localhost:6379/0');
  return input.trim();
}
