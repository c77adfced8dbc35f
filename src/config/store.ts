// The config store: the only module that touches conf. One JSON file of named profiles, readable by its
// owner alone (0600) in a directory only its owner can enter (0700 when we create it).
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Conf from 'conf';
import { CliError, ExitCode } from '../errors.js';
import { CORE_AGENTS } from '../api/types.js';
import { CONFIG_KEYS, validateConfigValue, validateProfileName, type ConfigKey } from './validate.js';

export { CONFIG_KEYS, type ConfigKey } from './validate.js';

/** What one profile holds. */
export type ProfileValues = Partial<Record<ConfigKey, string>>;

/** Named profiles (workspaces) side by side in one file. */
export interface ConfigStore {
  /** The config file. */
  readonly path: string;
  get(profile: string, key: ConfigKey): string | undefined;
  /** Validates (UsageError on a bad value), stores, and leaves the file at mode 0600. */
  set(profile: string, key: ConfigKey, value: string): void;
  /** Removes the key; removes the profile once it is empty. A no-op when it was not set. */
  unset(profile: string, key: ConfigKey): void;
  profile(profile: string): ProfileValues;
  profiles(): string[];
}

type Profiles = Record<string, ProfileValues>;
interface ConfigShape extends Record<string, unknown> {
  profiles?: Profiles;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

// conf validates the file against this on every read and write (JSON Schema, checked by ajv).
const SCHEMA = {
  profiles: {
    type: 'object',
    propertyNames: { pattern: '^[A-Za-z0-9_-]{1,64}$' },
    additionalProperties: {
      type: 'object',
      properties: {
        'api-key': { type: 'string', minLength: 1 },
        'base-url': { type: 'string', minLength: 1 },
        agent: { type: 'string', enum: [...CORE_AGENTS] },
      },
      additionalProperties: false,
    },
  },
} as const;

/** Where the file lives when AGENTS_CONFIG_DIR is not set: conf's per-user config directory. */
function configDir(env: NodeJS.ProcessEnv): string | undefined {
  const dir = env.AGENTS_CONFIG_DIR;
  return dir !== undefined && dir !== '' ? resolve(dir) : undefined;
}

/** Creates the config directory 0700 if it is missing (its parents keep the usual mode). */
function ensureDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** Turns conf's complaints about a broken file into one line that shows neither the file's text nor a key. */
function brokenFile(path: string, err: unknown): CliError {
  const reason =
    err instanceof SyntaxError
      ? 'is not valid JSON'
      : err instanceof Error && err.message.startsWith('Config schema violation:')
        ? `does not have the expected shape (${err.message.slice('Config schema violation: '.length)})`
        : `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'unknown error'})`;
  return new CliError(`the config file ${path} ${reason}`, {
    exitCode: ExitCode.USAGE,
    hint: `fix it by hand, or delete it and run \`agents login\` again`,
    cause: err,
  });
}

/** Opens the store. AGENTS_CONFIG_DIR moves it (tests, several users on one account). */
export function openConfig(env: NodeJS.ProcessEnv = process.env): ConfigStore {
  const cwd = configDir(env);
  let conf: Conf<ConfigShape>;
  try {
    if (cwd !== undefined) ensureDir(cwd);
    conf = new Conf<ConfigShape>({
      projectName: 'agents',
      projectSuffix: '',
      ...(cwd !== undefined ? { cwd } : {}),
      schema: SCHEMA,
      configFileMode: FILE_MODE,
      // Profile names and keys are plain properties; no dot paths, so "a.b" could never reach inside.
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw brokenFile(cwd !== undefined ? resolve(cwd, 'config.json') : 'in the user config directory', err);
  }
  const path = conf.path;
  // conf has just created its default directory with the usual 0755 if it was missing; no file yet means
  // the store is new (ours to shape), so close the directory before a key is ever written into it.
  if (cwd === undefined && !existsSync(path)) chmodSync(dirname(path), DIR_MODE);

  const read = (): Profiles => {
    try {
      return conf.get('profiles') ?? {};
    } catch (err) {
      throw brokenFile(path, err);
    }
  };
  const write = (profiles: Profiles): void => {
    conf.set('profiles', profiles);
    // conf applies the mode only to a file it creates; an existing 0644 file keeps its mode unless we fix it.
    chmodSync(path, FILE_MODE);
  };
  const profileOf = (profiles: Profiles, name: string): ProfileValues =>
    Object.hasOwn(profiles, name) ? { ...profiles[name] } : {};

  return {
    path,
    get: (profile, key) => profileOf(read(), validateProfileName(profile))[key],
    set(profile, key, value) {
      const name = validateProfileName(profile);
      const checked = validateConfigValue(key, value);
      const profiles = read();
      write({ ...profiles, [name]: { ...profileOf(profiles, name), [key]: checked.value } });
    },
    unset(profile, key) {
      const name = validateProfileName(profile);
      const profiles = read();
      const current = profileOf(profiles, name);
      if (current[key] === undefined) return;
      delete current[key];
      const next: Profiles = { ...profiles, [name]: current };
      if (CONFIG_KEYS.every((k) => current[k] === undefined)) delete next[name];
      write(next);
    },
    profile: (profile) => profileOf(read(), validateProfileName(profile)),
    profiles: () => Object.keys(read()).sort(),
  };
}
