// Where each setting comes from: flag > environment > the active profile > default. The config file is read
// only for a setting no flag or variable gives, so a broken file blocks only what needs it.
import type { CoreAgent } from '../api/types.js';
import { CliError, ExitCode, UsageError } from '../errors/cli-error.js';
import type { Env } from '../io/io.js';
import { KEY_DIGEST, keyPlaceOf, profileOf, type KeyPlace, type Profiles } from './config-file.js';
import type { ConfigKey } from './validators.js';
import {
  validateAgent,
  validateApiKey,
  validateBaseUrl,
  validateBudgetUrl,
  validateProfileName,
} from './validators.js';
import { validateNotify } from './notify-setting.js';
import { readKeychainKey } from './key-store.js';

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

export type SettingName = 'apiKey' | 'baseUrl' | 'agent' | 'budgetUrl' | 'notify';

export interface Settings {
  profile: string;
  /** AGENTS_API_KEY > the profile's key (keyPlace says where). No flag: it would leak into ps and history. */
  apiKey: string | undefined;
  /** Undefined too when the file was not read. */
  keyPlace: KeyPlace | undefined;
  keyProblem: string | undefined;
  /** Beside a key in the keychain: the digest naming its budget (`agents budget`). */
  keyDigest: { origin: string; digest: string } | undefined;
  /** Validated by requireConnection. */
  baseUrl: string | undefined;
  agent: CoreAgent | undefined;
  /** The profile's only when the file is read anyway: a CI job configured by its environment needs no file. */
  budgetUrl: string | undefined;
  notify: string | undefined;
  sources: Record<SettingName | 'profile', SettingSource>;
  /** When the file was read. */
  profiles: string[] | undefined;
}

export const ENV_VARS = {
  apiKey: 'AGENTS_API_KEY',
  baseUrl: 'AGENTS_BASE_URL',
  agent: 'AGENTS_AGENT',
  budgetUrl: 'AGENTS_BUDGET_URL',
  notify: 'AGENTS_NOTIFY',
  profile: 'AGENTS_PROFILE',
} as const;

/** A setting's key in the config file: `apiKey` → `api-key`. */
const fileKey = (name: SettingName) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) as ConfigKey;

/** Set-but-empty counts as unset, as most CLIs treat it. */
export function fromEnv(env: Env, name: string): string | undefined {
  return env[name] || undefined;
}

/** --profile > AGENTS_PROFILE > 'default'. */
export function resolveProfile(
  globals: { profile?: string },
  env: Env,
): { profile: string; source: SettingSource } {
  if (globals.profile !== undefined)
    return { profile: validateProfileName(globals.profile, '--profile'), source: 'flag' };
  const named = fromEnv(env, ENV_VARS.profile);
  if (named !== undefined) return { profile: validateProfileName(named, ENV_VARS.profile), source: 'env' };
  return { profile: 'default', source: 'default' };
}

/** How the key is read: `keychain: false` says where it is without asking the store (`config list`). */
export interface KeyReading {
  keychain?: boolean;
  keychainTimeoutMs?: number;
}

/** Reads the file at most once, for a setting in `need` no flag or variable gives; the keychain likewise. */
export async function resolveSettings(
  globals: { profile?: string; baseUrl?: string },
  env: Env,
  readFile: () => Promise<Profiles>,
  need: readonly SettingName[] = ['apiKey', 'baseUrl', 'agent', 'budgetUrl', 'notify'],
  reading: KeyReading = {},
): Promise<Settings> {
  const { profile, source: profileSource } = resolveProfile(globals, env);
  const given = (name: SettingName): [string | undefined, SettingSource] =>
    name === 'baseUrl' && globals.baseUrl !== undefined
      ? [globals.baseUrl, 'flag']
      : [fromEnv(env, ENV_VARS[name]), 'env'];
  // The budget URL and notify make the file be read only when asked for alone (Settings.budgetUrl).
  const optional = (name: SettingName) => need.length > 1 && (name === 'budgetUrl' || name === 'notify');
  const missing = (name: SettingName) => given(name)[0] === undefined && !optional(name);
  const profiles = need.some(missing) ? await readFile() : undefined;
  const stored = profiles === undefined ? {} : profileOf(profiles, profile);

  const sources = { profile: profileSource } as Settings['sources'];
  const value = (name: SettingName): string | undefined => {
    let [v, source] = given(name);
    if (v === undefined) {
      v = need.includes(name) || name === 'budgetUrl' ? stored[fileKey(name)] : undefined;
      source = v === undefined ? 'default' : 'profile';
    }
    sources[name] = source;
    return v;
  };
  let apiKey = value('apiKey');
  let keyPlace: KeyPlace | undefined = sources.apiKey === 'env' ? 'environment' : undefined;
  let keyProblem: string | undefined;
  if (keyPlace === undefined && profiles !== undefined) {
    keyPlace = keyPlaceOf(stored);
    if (keyPlace === 'keychain' && need.includes('apiKey') && reading.keychain !== false) {
      const read = await readKeychainKey(profile, { env, timeoutMs: reading.keychainTimeoutMs });
      if ('key' in read) [apiKey, sources.apiKey] = [read.key, 'profile'];
      else keyProblem = read.problem;
    }
  }
  const checked = <T>(name: SettingName, check: (v: string, where: string) => T, envWhere: string) => {
    const v = value(name);
    return v === undefined
      ? undefined
      : check(v, sources[name] === 'env' ? envWhere : `${fileKey(name)} in the config`);
  };
  const digest = keyPlace === 'keychain' ? /^(\S+) ([0-9a-f]{64})$/.exec(stored[KEY_DIGEST] ?? '') : null;
  // In this order: of two bad values, the first is said.
  return {
    profile,
    apiKey,
    baseUrl: value('baseUrl'),
    notify: checked('notify', validateNotify, ENV_VARS.notify),
    budgetUrl: checked('budgetUrl', validateBudgetUrl, ENV_VARS.budgetUrl),
    agent: checked('agent', validateAgent, `agent in ${ENV_VARS.agent}`),
    keyPlace,
    keyProblem,
    keyDigest: digest === null ? undefined : { origin: digest[1]!, digest: digest[2]! },
    sources,
    profiles: profiles === undefined ? undefined : Object.keys(profiles).sort(),
  };
}
/** For an error message: "--base-url", "AGENTS_BASE_URL", "profile work". */
export function describeSource(s: Settings, setting: SettingName): string {
  const source = s.sources[setting];
  if (source === 'flag') return setting === 'baseUrl' ? '--base-url' : `--${setting}`;
  if (source === 'env') return ENV_VARS[setting];
  if (source === 'profile') return `profile "${s.profile}"`;
  return 'default';
}

/** Throws for a profile named on purpose (--profile, AGENTS_PROFILE) that the config file does not have. */
function requireKnownProfile(s: Settings): void {
  if (s.sources.profile === 'default' || s.profiles === undefined || s.profiles.includes(s.profile)) return;
  const known = s.profiles.length === 0 ? 'there are none yet' : `known: ${s.profiles.join(', ')}`;
  const by = s.sources.profile === 'flag' ? '--profile' : ENV_VARS.profile;
  throw new UsageError(
    `no profile "${s.profile}" (from ${by}) in the config file; ${known}`,
    `create it with: agents login --profile ${s.profile}`,
  );
}

const login = (s: Settings) => `agents login${s.profile === 'default' ? '' : ` --profile ${s.profile}`}`;

/** The base URL, validated, and its warning, as requireConnection. */
export function requireBaseUrl(s: Settings): { value: string; warning: string | undefined } {
  if (s.baseUrl === undefined) {
    requireKnownProfile(s);
    throw new UsageError(
      'no base URL is configured',
      `run \`${login(s)}\`, or pass --base-url URL, or set ${ENV_VARS.baseUrl}`,
    );
  }
  return validateBaseUrl(s.baseUrl, `the base URL from ${describeSource(s, 'baseUrl')}`);
}

/** The base URL and key, validated as `config set` does: exit 2 for an unknown profile or a bad or missing
 * base URL, 3 for no key. `warn` receives the plain-http warning. */
export function requireConnection(
  s: Settings,
  warn?: (line: string) => void,
): { baseUrl: string; apiKey: string } {
  if (s.apiKey === undefined) requireKnownProfile(s);
  const checked = requireBaseUrl(s);
  if (s.apiKey === undefined) {
    const why = s.keyProblem === undefined ? '' : `: ${s.keyProblem}`;
    throw new CliError(`no API key for profile "${s.profile}"${why}`, {
      exitCode: ExitCode.AUTH,
      hint: `run \`${login(s)}\`, or set ${ENV_VARS.apiKey}`,
    });
  }
  const apiKey = validateApiKey(s.apiKey, `the API key from ${describeSource(s, 'apiKey')}`);
  if (checked.warning !== undefined) warn?.(checked.warning);
  return { baseUrl: checked.value, apiKey };
}
