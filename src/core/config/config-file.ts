// The config file: one JSON file of named profiles (workspaces), 0600 in a 0700 directory, written by conf
// alone, which writes atomically and checks the whole file against SCHEMA before each write.
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { default as Conf, Options as ConfOptions } from 'conf';
import { CORE_AGENTS } from '../api/types.js';
import { CliError, ExitCode } from '../errors/cli-error.js';
import type { Env } from '../io/io.js';
import { isObject } from '../../util/json.js';
import { LockError, withLock } from '../../util/lock.js';
import { fileError, fsCode } from '../errors/file-errors.js';
import { configDir } from './locations.js';
import { CONFIG_KEYS, validateConfigValue, validateProfileName, type ConfigKey } from './validators.js';

/** `keychain` when the system's credential store holds the profile's key (key-store.ts); written by `login`. */
export const KEY_STORE = 'key-store';
/** Beside a key in the keychain, `<origin> <budgetDigest>`: `agents budget` finds it without the key. */
export const KEY_DIGEST = 'key-digest';
type StoredKey = ConfigKey | typeof KEY_STORE | typeof KEY_DIGEST;
const STORED_KEYS: readonly StoredKey[] = [...CONFIG_KEYS, KEY_STORE, KEY_DIGEST];
export type ProfileValues = Partial<Record<StoredKey, string>>;
export type KeyPlace = 'keychain' | 'file' | 'environment';

export function keyPlaceOf(values: ProfileValues): 'keychain' | 'file' | undefined {
  if (values[KEY_STORE] === 'keychain') return 'keychain';
  return values['api-key'] === undefined ? undefined : 'file';
}
export type Profiles = Record<string, ProfileValues>;

export type ConfigFile = ReturnType<typeof openConfigFile>;

interface ConfigShape extends Record<string, unknown> {
  profiles?: Profiles;
}

const FILE_MODE = 0o600;

// conf validates the whole file against this (ajv) before each write; names as validators.ts checks them.
export const SCHEMA = {
  profiles: {
    type: 'object',
    propertyNames: { pattern: '^[A-Za-z0-9_-]{1,64}$' },
    additionalProperties: {
      type: 'object',
      properties: {
        'api-key': { type: 'string', minLength: 1 },
        'base-url': { type: 'string', minLength: 1 },
        agent: { type: 'string', enum: [...CORE_AGENTS] },
        'budget-url': { type: 'string', pattern: '^rediss?://' },
        notify: { type: 'string', minLength: 1 },
        [KEY_STORE]: { type: 'string', enum: ['keychain'] },
        [KEY_DIGEST]: { type: 'string', pattern: '^https?://[^ ]+ [0-9a-f]{64}$' },
      },
      additionalProperties: false,
    },
  },
} as const;

/** Exit 2, and neither the file's text nor a key in the message. */
function brokenFile(path: string, reason: string, cause?: unknown): CliError {
  return new CliError(`the config file ${path} ${reason}`, {
    exitCode: ExitCode.USAGE,
    hint: 'fix it by hand, or delete it and run `agents login` again',
    cause,
  });
}

function ensureDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if (fsCode(err) !== 'EEXIST') throw err;
  }
}

/** The file's text as conf and a read both take it; a top level that is no object is a broken file. */
function parse(path: string, text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (!isObject(value)) throw misshapen(path, 'the top level must be an object');
  return value;
}

const misshapen = (path: string, why: string, cause?: unknown) =>
  brokenFile(path, `does not have the expected shape: ${why}`, cause);

/** conf on `dir`, with the schema, for a write. Loads conf (a chunk of its own) on first use. */
async function openConf(dir: string, path: string): Promise<Conf<ConfigShape>> {
  const { default: ConfClass } = await import('conf');
  const options: ConfOptions<ConfigShape> = {
    cwd: dir,
    configFileMode: FILE_MODE,
    // Profile names and keys are plain properties: no dot paths, so "a.b" never reaches inside.
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
    deserialize: (text: string) => parse(path, text),
    schema: SCHEMA,
    // ajv would first check SCHEMA against JSON Schema's own meta-schema, which it compiles for that: about
    // 70 ms of a `config set`'s 300. SCHEMA is a constant, and a unit test makes that check once.
    ajvOptions: { validateSchema: false },
  };
  let conf: Conf<ConfigShape>;
  try {
    conf = new ConfClass<ConfigShape>(options);
  } catch (err) {
    throw explain(path, err);
  }
  if (conf.path !== path) throw new Error(`conf uses ${conf.path}, not ${path}`);
  return conf;
}

function explain(path: string, err: unknown): CliError {
  if (err instanceof CliError) return err;
  // JSON.parse's message quotes the text around the error, which may be part of a key: not shown.
  if (err instanceof SyntaxError) return brokenFile(path, 'is not valid JSON', err);
  const message = err instanceof Error ? err.message : '';
  if (message.startsWith('Config schema violation:')) return misshapen(path, message.slice(25).trim(), err);
  if (fsCode(err) !== undefined) return fileError('the config file', path, 'read', err);
  return brokenFile(path, 'cannot be opened', err);
}

function profilesOf(path: string, store: Record<string, unknown>): Profiles {
  const profiles = store.profiles;
  if (profiles === undefined) return {};
  if (!isObject(profiles)) throw misshapen(path, '`profiles` must be an object');
  const out: Profiles = {};
  for (const [name, values] of Object.entries(profiles)) {
    if (!isObject(values)) throw misshapen(path, `\`profiles/${name}\` must be an object`);
    const kept: ProfileValues = {};
    for (const key of STORED_KEYS) if (typeof values[key] === 'string') kept[key] = values[key];
    // Own properties only: no name reaches the prototype.
    Object.defineProperty(out, name, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function profileOf(profiles: Profiles, name: string): ProfileValues {
  return Object.hasOwn(profiles, name) ? { ...profiles[name] } : {};
}

export function openConfigFile(env: Env) {
  const dir = configDir(env);
  const path = join(dir, 'config.json');

  // A read parses the file itself, as conf would, and skips the schema: conf's chunk is 300 kB with ajv,
  // about 20 ms of CPU and 2.5 MB of every command. settings.ts validates each field a command reads.
  function read(): Profiles {
    try {
      return profilesOf(path, parse(path, readFileSync(path, 'utf8')));
    } catch (err) {
      if (fsCode(err) === 'ENOENT') return {};
      throw explain(path, err);
    }
  }

  /** Stores what `edit` makes of profile `name` under the lock, after `first`; an empty profile is removed. */
  async function change(
    name: string,
    edit: (current: ProfileValues) => ProfileValues | undefined,
    first: () => Promise<unknown> = () => Promise.resolve(),
  ): Promise<void> {
    try {
      ensureDir(dir);
      await withLock(path, async () => {
        await first();
        const conf = await openConf(dir, path);
        const profiles = profilesOf(path, conf.store);
        const next = edit(profileOf(profiles, name));
        if (next === undefined) return;
        const all: Profiles = { ...profiles, [name]: next };
        if (STORED_KEYS.every((k) => next[k] === undefined)) delete all[name];
        conf.set('profiles', all);
        // conf applies the mode only to a file it creates; an existing 0644 file keeps it unless fixed.
        chmodSync(path, FILE_MODE);
      });
    } catch (err) {
      if (err instanceof CliError) throw err;
      if (err instanceof LockError && err.code === 'ELOCKED') {
        throw new CliError(`the config file is locked by another agents process (${err.lockPath})`, {
          hint: `if no agents command is running, delete ${err.lockPath}`,
          cause: err,
        });
      }
      const cause = err instanceof LockError ? err.cause : err;
      if (fsCode(cause) !== undefined) throw fileError('the config file', path, 'write', cause);
      throw explain(path, err);
    }
  }

  return {
    path,
    /** Every profile; none when there is no file. A broken file rejects with a CliError naming it. */
    profiles: (): Promise<Profiles> => Promise.resolve().then(read),
    /** Validates and stores, under a lock so that concurrent writers lose nothing. */
    async set(profile: string, key: ConfigKey, value: string): Promise<void> {
      const name = validateProfileName(profile);
      const checked = validateConfigValue(key, value);
      await change(name, (current) => ({ ...current, [key]: checked.value }));
    },
    /** Removes the key, and the profile once it is empty; false when it was not set. */
    async unset(profile: string, key: ConfigKey): Promise<boolean> {
      const name = validateProfileName(profile);
      if (profileOf(read(), name)[key] === undefined) return false;
      let removed = false;
      await change(name, (current) => {
        if (current[key] === undefined) return undefined;
        delete current[key];
        removed = true;
        return current;
      });
      return removed;
    },
    /** `first` runs under the lock too: two logins never leave one's file beside the other's keychain entry. */
    async update<T>(
      profile: string,
      first: (current: ProfileValues) => Promise<T>,
      edit: (current: ProfileValues, got: T) => ProfileValues | undefined,
    ): Promise<T> {
      const name = validateProfileName(profile);
      let got: T | undefined;
      await change(
        name,
        (current) => edit(current, got as T),
        async () => {
          got = await first(profileOf(read(), name));
        },
      );
      return got as T;
    },
  };
}
