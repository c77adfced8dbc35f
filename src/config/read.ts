// Reading the config file: plain JSON, checked against the same rules as conf's schema in store.ts. Every
// command that talks to the service resolves its settings through here, so it never pays for loading conf
// and compiling its schema (about 230 ms on Node 20); conf is loaded only to write.
import { readFileSync } from 'node:fs';
import { CORE_AGENTS } from '../api/types.js';
import { CliError, ExitCode } from '../errors.js';
import { configFile } from './paths.js';
import { CONFIG_KEYS, type ConfigKey } from './validate.js';

/** What one profile holds. */
export type ProfileValues = Partial<Record<ConfigKey, string>>;
/** All profiles by name. */
export type Profiles = Record<string, ProfileValues>;

/** Read access to the profiles; what settings resolution needs. */
export interface ProfileReader {
  /** The config file. */
  readonly path: string;
  get(profile: string, key: ConfigKey): string | undefined;
  profile(profile: string): ProfileValues;
  profiles(): string[];
}

/** The pattern a stored profile name must match (also in conf's schema). */
export const PROFILE_NAME_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

/** A config file we cannot use: exit 2, a hint, and neither the file's text nor a key in the message. */
export function brokenFile(path: string, reason: string, cause?: unknown): CliError {
  return new CliError(`the config file ${path} ${reason}`, {
    exitCode: ExitCode.USAGE,
    hint: 'fix it by hand, or delete it and run `agents login` again',
    cause,
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks parsed JSON against the config's shape; the reason names the place, never the value. */
function shapeProblem(data: unknown): string | undefined {
  if (!isObject(data)) return 'the top level must be an object';
  if (data.profiles === undefined) return undefined;
  if (!isObject(data.profiles)) return '`profiles` must be an object';
  const name = new RegExp(PROFILE_NAME_PATTERN);
  for (const [profile, values] of Object.entries(data.profiles)) {
    if (!name.test(profile)) return 'a profile name must be 1 to 64 letters, digits, "-" or "_"';
    if (!isObject(values)) return `\`profiles/${profile}\` must be an object`;
    for (const [key, value] of Object.entries(values)) {
      if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
        return `\`profiles/${profile}\` has an unknown key (allowed: ${CONFIG_KEYS.join(', ')})`;
      }
      if (typeof value !== 'string' || value === '')
        return `\`profiles/${profile}/${key}\` must be a non-empty string`;
      if (key === 'agent' && !(CORE_AGENTS as readonly string[]).includes(value)) {
        return `\`profiles/${profile}/agent\` must be one of ${CORE_AGENTS.join(', ')}`;
      }
    }
  }
  return undefined;
}

/** The profiles in the file at `path`; none when the file does not exist. */
export function readProfiles(path: string): Profiles {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw brokenFile(path, `cannot be read (${code ?? 'unknown error'})`, err);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    // JSON.parse's message quotes the text around the error, which may be part of a key: not shown.
    throw brokenFile(path, 'is not valid JSON', err);
  }
  const problem = shapeProblem(data);
  if (problem !== undefined) throw brokenFile(path, `does not have the expected shape: ${problem}`);
  return (data as { profiles?: Profiles }).profiles ?? {};
}

/** One profile out of `profiles`, as a copy; own properties only, so no name reaches the prototype. */
export function profileOf(profiles: Profiles, name: string): ProfileValues {
  return Object.hasOwn(profiles, name) ? { ...profiles[name] } : {};
}

/** Read-only access to the config file, without conf. Each call reads the file afresh. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ProfileReader {
  const path = configFile(env);
  return {
    path,
    get: (profile, key) => profileOf(readProfiles(path), profile)[key],
    profile: (profile) => profileOf(readProfiles(path), profile),
    profiles: () => Object.keys(readProfiles(path)).sort(),
  };
}
