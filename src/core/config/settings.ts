// Where each setting comes from: flag > environment > the active profile > default. Commands never read
// AGENTS_* variables themselves; they ask here. The config file is read only for a setting that neither a
// flag nor the environment gives, so a broken file blocks only what needs it.
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

/** The settings of this run, each with its source. Only those asked for are looked up. */
export interface Settings {
  /** --profile > AGENTS_PROFILE > 'default'. */
  profile: string;
  /** AGENTS_API_KEY > the profile's key (keyPlace says where). No flag: it would leak into ps and history. */
  apiKey: string | undefined;
  /** Undefined when the key is nowhere, or when the file (which says where) was not read. */
  keyPlace: KeyPlace | undefined;
  /** Why the profile's key could not be had from the keychain; never the key. */
  keyProblem: string | undefined;
  /** Beside a key in the keychain: the digest naming its budget on `origin` (`agents budget` reads it). */
  keyDigest: { origin: string; digest: string } | undefined;
  /** --base-url > AGENTS_BASE_URL > profile 'base-url'. No default; validated by requireConnection. */
  baseUrl: string | undefined;
  /** AGENTS_AGENT > profile 'agent' (the --agent flag belongs to `create`). */
  agent: CoreAgent | undefined;
  /**
   * AGENTS_BUDGET_URL > profile 'budget-url'. The profile's is read when the file is read for another
   * setting, never on its own: a CI job configured by its environment does not depend on a config file.
   */
  budgetUrl: string | undefined;
  /** AGENTS_NOTIFY > profile 'notify' (the --notify flags belong to the commands that wait), validated. */
  notify: string | undefined;
  sources: Record<SettingName | 'profile', SettingSource>;
  /** The profiles in the file, when it was read (for messages about a profile that does not exist). */
  profiles: string[] | undefined;
}

/** The environment variable behind each setting, for messages. */
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

/** An environment variable's value; set-but-empty counts as unset, as most CLIs treat it. */
export function fromEnv(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The profile of this run, validated: --profile > AGENTS_PROFILE > 'default'. */
export function resolveProfile(
  globals: { profile?: string },
  env: Env,
): { profile: string; source: SettingSource } {
  if (globals.profile !== undefined) {
    return { profile: validateProfileName(globals.profile, '--profile'), source: 'flag' };
  }
  const named = fromEnv(env, ENV_VARS.profile);
  if (named !== undefined) return { profile: validateProfileName(named, ENV_VARS.profile), source: 'env' };
  return { profile: 'default', source: 'default' };
}

/** The `key-digest` a profile holds, split (undefined when there is none, or it is not one). */
function digestOf(value: string | undefined): { origin: string; digest: string } | undefined {
  const m = value === undefined ? null : /^(\S+) ([0-9a-f]{64})$/.exec(value);
  return m === null ? undefined : { origin: m[1]!, digest: m[2]! };
}

/** How the key is read: `keychain: false` says where it is without asking the store (`config list`). */
export interface KeyReading {
  keychain?: boolean;
  keychainTimeoutMs?: number;
}

/**
 * Resolves the settings named in `need`; `readFile` is called at most once, and only when one of them has
 * no flag or environment value. A key the profile keeps in the keychain is read from there (key-store.ts):
 * the one place every face reads it.
 */
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
  // The budget URL and notify never make the file be read beside other settings (see Settings.budgetUrl);
  // asked for alone (`config get budget-url`, a wait's end), each is what the file is read for.
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
  const baseUrl = value('baseUrl');
  const checked = <T>(name: SettingName, check: (v: string, where: string) => T, envWhere: string) => {
    const v = value(name);
    return v === undefined
      ? undefined
      : check(v, sources[name] === 'env' ? envWhere : `${fileKey(name)} in the config`);
  };
  const notify = checked('notify', validateNotify, ENV_VARS.notify);
  const budgetUrl = checked('budgetUrl', validateBudgetUrl, ENV_VARS.budgetUrl);
  const agent = checked('agent', validateAgent, `agent in ${ENV_VARS.agent}`);
  return {
    profile,
    apiKey,
    baseUrl,
    agent,
    budgetUrl,
    notify,
    keyPlace,
    keyProblem,
    keyDigest: keyPlace === 'keychain' ? digestOf(stored[KEY_DIGEST]) : undefined,
    sources,
    profiles: profiles === undefined ? undefined : Object.keys(profiles).sort(),
  };
}
/** Names the source of a setting for an error message: "--base-url", "AGENTS_BASE_URL", "profile work". */
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

/** The base URL, validated, and its warning; an unknown profile or no base URL → exit 2 (requireConnection). */
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

/**
 * The base URL and key to talk to the service, or the CliError that says what is missing: an unknown
 * profile, no base URL or an invalid one → exit 2; no key → exit 3. Values from flags and the environment
 * are validated exactly as `config set` validates them. `warn` receives the plain-http warning, if any.
 */
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
