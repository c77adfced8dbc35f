// Where each setting comes from: flag > environment > the active profile > default. Commands never read
// AGENTS_* variables themselves; they ask here.
import type { CoreAgent } from '../api/types.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { readConfig, type ProfileReader } from './read.js';
import { validateAgent, validateApiKey, validateBaseUrl, validateProfileName } from './validate.js';

/** Where a setting's value came from. */
export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

/** The settings of this run, each with its source. */
export interface Settings {
  /** --profile > AGENTS_PROFILE > 'default'. */
  profile: string;
  /** AGENTS_API_KEY > profile 'api-key'. No flag: a key on the command line leaks into ps and history. */
  apiKey: string | undefined;
  /** --base-url > AGENTS_BASE_URL > profile 'base-url'. No default; not yet validated (requireConnection does). */
  baseUrl: string | undefined;
  /** AGENTS_AGENT > profile 'agent' (the --agent flag belongs to `create`). */
  agent: CoreAgent | undefined;
  sources: Record<'apiKey' | 'baseUrl' | 'agent' | 'profile', SettingSource>;
}

/** The environment variable behind each setting, for messages. */
export const ENV_VARS = {
  apiKey: 'AGENTS_API_KEY',
  baseUrl: 'AGENTS_BASE_URL',
  agent: 'AGENTS_AGENT',
  profile: 'AGENTS_PROFILE',
} as const;

/** An environment variable's value; set-but-empty counts as unset, as most CLIs treat it. */
function fromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function pick(
  flag: string | undefined,
  envValue: string | undefined,
  stored: string | undefined,
): [string | undefined, SettingSource] {
  if (flag !== undefined) return [flag, 'flag'];
  if (envValue !== undefined) return [envValue, 'env'];
  if (stored !== undefined) return [stored, 'profile'];
  return [undefined, 'default'];
}

/**
 * Resolves every setting. A bad profile name or agent name is a usage error here; the base URL and key are
 * checked by requireConnection, so commands that do not talk to the service (config list) still run.
 * Without `store`, the config file is read directly (conf is not loaded: it is needed only to write).
 */
export function resolveSettings(
  globals: { profile?: string; baseUrl?: string },
  env: NodeJS.ProcessEnv,
  store: Pick<ProfileReader, 'profile'> = readConfig(env),
): Settings {
  const [profileName, profileSource] = pick(globals.profile, fromEnv(env, ENV_VARS.profile), undefined);
  const profile =
    profileName === undefined
      ? 'default'
      : validateProfileName(profileName, profileSource === 'flag' ? '--profile' : ENV_VARS.profile);
  const stored = store.profile(profile);

  const [apiKey, apiKeySource] = pick(undefined, fromEnv(env, ENV_VARS.apiKey), stored['api-key']);
  const [baseUrl, baseUrlSource] = pick(globals.baseUrl, fromEnv(env, ENV_VARS.baseUrl), stored['base-url']);
  const [agentName, agentSource] = pick(undefined, fromEnv(env, ENV_VARS.agent), stored.agent);
  const agent =
    agentName === undefined
      ? undefined
      : validateAgent(
          agentName,
          agentSource === 'env' ? `agent in ${ENV_VARS.agent}` : 'agent in the config',
        );

  return {
    profile,
    apiKey,
    baseUrl,
    agent,
    sources: {
      profile: profileSource,
      apiKey: apiKeySource,
      baseUrl: baseUrlSource,
      agent: agentSource,
    },
  };
}

/** Names the source of a setting for an error message: "--base-url", "AGENTS_BASE_URL", "profile work". */
export function describeSource(s: Settings, setting: 'apiKey' | 'baseUrl' | 'agent'): string {
  const source = s.sources[setting];
  if (source === 'flag') return setting === 'baseUrl' ? '--base-url' : `--${setting}`;
  if (source === 'env') return ENV_VARS[setting];
  if (source === 'profile') return `profile "${s.profile}"`;
  return 'default';
}

/**
 * The base URL and key to talk to the service, or the CliError that says what is missing: no base URL or
 * an invalid one → exit 2; no key → exit 3. Values from flags and the environment are validated exactly as
 * `config set` validates them. `warn` receives the plain-http warning, if any.
 */
export function requireConnection(
  s: Settings,
  warn?: (line: string) => void,
): { baseUrl: string; apiKey: string } {
  const profileFlag = s.profile === 'default' ? '' : ` --profile ${s.profile}`;
  if (s.baseUrl === undefined) {
    throw new UsageError(
      'no base URL is configured',
      `run \`agents login${profileFlag}\`, or pass --base-url URL, or set ${ENV_VARS.baseUrl}`,
    );
  }
  const checked = validateBaseUrl(s.baseUrl, `the base URL from ${describeSource(s, 'baseUrl')}`);
  if (s.apiKey === undefined) {
    throw new CliError(`no API key for profile "${s.profile}"`, {
      exitCode: ExitCode.AUTH,
      hint: `run \`agents login${profileFlag}\`, or set ${ENV_VARS.apiKey}`,
    });
  }
  const apiKey = validateApiKey(s.apiKey, `the API key from ${describeSource(s, 'apiKey')}`);
  if (checked.warning !== undefined) warn?.(checked.warning);
  return { baseUrl: checked.value, apiKey };
}
