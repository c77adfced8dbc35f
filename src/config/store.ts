// The config store: the only module that touches conf, which writes the file atomically, checks it against
// a JSON schema and creates it 0600. One JSON file of named profiles, in a directory made 0700.
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Conf from 'conf';
import { CORE_AGENTS } from '../api/types.js';
import { CliError } from '../errors.js';
import { withFileLock } from '../util/file-lock.js';
import { configDir, configFile } from './paths.js';
import {
  PROFILE_NAME_PATTERN,
  brokenFile,
  profileOf,
  readProfiles,
  type ProfileReader,
  type ProfileValues,
  type Profiles,
} from './read.js';
import { CONFIG_KEYS, validateConfigValue, validateProfileName, type ConfigKey } from './validate.js';

export { CONFIG_KEYS, type ConfigKey } from './validate.js';
export type { ProfileReader, ProfileValues } from './read.js';

/** Named profiles (workspaces) side by side in one file. */
export interface ConfigStore extends ProfileReader {
  /** Validates (UsageError on a bad value), stores, and leaves the file at mode 0600. */
  set(profile: string, key: ConfigKey, value: string): void;
  /** Removes the key; removes the profile once it is empty. A no-op when it was not set. */
  unset(profile: string, key: ConfigKey): void;
}

interface ConfigShape extends Record<string, unknown> {
  profiles?: Profiles;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

// conf checks the whole file against this (ajv) before each write; read.ts applies the same rules.
const SCHEMA = {
  profiles: {
    type: 'object',
    propertyNames: { pattern: PROFILE_NAME_PATTERN },
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

/** Creates the config directory 0700 if it is missing; its parents get the usual mode. */
function ensureDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

// conf replaces the file atomically, but a change is read, modified, then written: two `config set` at once
// (say base-url and agent from one setup script) would each write the file as they read it, and one key would
// be lost. A lock file serializes the read-modify-write (src/util/file-lock.ts).
function withLock<T>(path: string, fn: () => T): T {
  return withFileLock(path, fn, (lock) => {
    throw new CliError(`the config file is locked by another agents process (${lock})`, {
      hint: `if no agents command is running, delete ${lock}`,
    });
  });
}

/** conf over `dir`, opened on the first write only: compiling its schema costs tens of milliseconds. */
function writer(dir: string, path: string): () => Conf<ConfigShape> {
  let conf: Conf<ConfigShape> | undefined;
  return () => {
    if (conf !== undefined) return conf;
    // Read first: a broken file is reported the same way as on any read, and conf never clears it.
    readProfiles(path);
    ensureDir(dir);
    try {
      conf = new Conf<ConfigShape>({
        projectName: 'agents',
        projectSuffix: '',
        cwd: dir,
        schema: SCHEMA,
        configFileMode: FILE_MODE,
        // Profile names and keys are plain properties: no dot paths, so "a.b" never reaches inside.
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
      });
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw brokenFile(path, 'cannot be opened', err);
    }
    // read.ts reads `path`; conf must write that very file.
    if (conf.path !== path) throw new Error(`conf writes ${conf.path}, not ${path}`);
    return conf;
  };
}

/** Opens the store (nothing is created until the first write). AGENTS_CONFIG_DIR moves it. */
export function openConfig(env: NodeJS.ProcessEnv = process.env): ConfigStore {
  const dir = configDir(env);
  const path = configFile(env);
  const conf = writer(dir, path);

  const write = (profiles: Profiles): void => {
    conf().set('profiles', profiles);
    // conf applies the mode only to a file it creates; an existing 0644 file keeps its mode unless we fix it.
    chmodSync(path, FILE_MODE);
  };
  const read = (profile: string): ProfileValues =>
    profileOf(readProfiles(path), validateProfileName(profile));

  return {
    path,
    get: (profile, key) => read(profile)[key],
    profile: read,
    profiles: () => Object.keys(readProfiles(path)).sort(),
    set(profile, key, value) {
      const name = validateProfileName(profile);
      const checked = validateConfigValue(key, value);
      ensureDir(dir);
      withLock(path, () => {
        const profiles = readProfiles(path);
        write({ ...profiles, [name]: { ...profileOf(profiles, name), [key]: checked.value } });
      });
    },
    unset(profile, key) {
      const name = validateProfileName(profile);
      if (read(name)[key] === undefined) return;
      withLock(path, () => {
        const profiles = readProfiles(path);
        const current = profileOf(profiles, name);
        if (current[key] === undefined) return;
        delete current[key];
        const next: Profiles = { ...profiles, [name]: current };
        if (CONFIG_KEYS.every((k) => current[k] === undefined)) delete next[name];
        write(next);
      });
    },
  };
}
