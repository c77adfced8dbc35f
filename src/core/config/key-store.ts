// A profile's API key in the system's credential store (as `gh` keeps its token) or in the file (0600); the
// store through a child process (keychain-helper.ts) that counts as none past its bound, so nothing hangs.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSea } from 'node:sea';
import { CliError } from '../errors/cli-error.js';
import { KEY_DIGEST, KEY_STORE, keyPlaceOf, type ConfigFile, type ProfileValues } from './config-file.js';
import { budgetDigest } from '../budget/state.js';
import { runBounded } from '../io/child.js';
import type { Env } from '../io/io.js';
import { keychainFromEnv } from './env.js';
import type { KeychainAnswer, KeychainRequest } from './keychain-helper.js';
import { configDir } from './locations.js';
import { validateApiKey } from './validators.js';

export type StoreMode = 'auto' | 'keychain' | 'file';

/** `timeoutMs`: how long the store may take before it counts as none (the 3 s; tests shorten it). */
export interface KeyStoreOptions {
  env: Env;
  timeoutMs?: number;
}

type KeychainResult<T> =
  { ok: true; value: T } | { ok: false; kind: 'unavailable' | 'refused' | 'timeout'; message: string };

/** process.execPath's arguments: none in the one-file build (it is the helper too), else the helper's file. */
function helperArgs(): string[] {
  if (isSea()) return [];
  // Beside this file in src/ (the tests), one folder up from dist/'s chunks (dist/chunks, dist/lib).
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = ['keychain-helper.js', '../keychain-helper.js', 'keychain-helper.ts'].map((f) =>
    join(here, f),
  );
  return ['--no-warnings', candidates.find((p) => existsSync(p)) ?? candidates[0]!];
}

/** One request to the store through the helper; the secret goes through its stdin, never into a log. */
async function keychainCall<T>(request: KeychainRequest, o: KeyStoreOptions): Promise<KeychainResult<T>> {
  const bound = o.timeoutMs ?? 3_000;
  // Its stderr is dropped: the library's own diagnostics are not ours to print.
  const env = { ...o.env, AGENTS_KEYCHAIN_HELPER: '1' };
  const run = { env, input: JSON.stringify(request), timeoutMs: bound, read: 'stdout' } as const;
  const end = await runBounded(process.execPath, helperArgs(), run);
  const unavailable = (message: string) => ({ ok: false, kind: 'unavailable', message }) as const;
  if (end.kind === 'timeout')
    return { ok: false, kind: 'timeout', message: `did not answer within ${bound} ms` };
  if (end.kind === 'error') return unavailable(`the keychain helper did not start (${end.error.message})`);
  try {
    const answer = JSON.parse(end.text) as KeychainAnswer;
    return answer.ok ? { ok: true, value: answer.value as T } : answer;
  } catch {
    return unavailable('the keychain helper ended without an answer');
  }
}

/** The account names the config directory too, so that two setups (AGENTS_CONFIG_DIR) never share one. */
function entryOf(profile: string, o: KeyStoreOptions): { service: string; account: string } {
  return { service: 'agents-cli', account: `${profile}@${configDir(o.env)}` };
}

function why(r: Extract<KeychainResult<unknown>, { ok: false }>): string {
  if (r.kind === 'timeout') return `the system keychain ${r.message}`;
  if (r.kind === 'refused') return `the system keychain refused access (${r.message})`;
  return `no system keychain answers here (${r.message})`;
}

/** The key of `profile` from the keychain, or why there is none; an invalid entry is never sent. */
export async function readKeychainKey(
  profile: string,
  o: KeyStoreOptions,
): Promise<{ key: string } | { problem: string }> {
  const r = await keychainCall<string | null>({ op: 'get', ...entryOf(profile, o) }, o);
  if (!r.ok) return { problem: `could not read it from the system keychain: ${why(r)}` };
  if (typeof r.value !== 'string') return { problem: 'the system keychain has no entry for it' };
  try {
    return { key: validateApiKey(r.value) };
  } catch {
    return { problem: 'its entry in the system keychain is not a valid API key (ignored)' };
  }
}

/** The profile's values without its key: neither in the file nor marked as in the keychain. */
function withoutKey(current: ProfileValues): ProfileValues {
  const next = { ...current };
  for (const k of ['api-key', KEY_STORE, KEY_DIGEST] as const) delete next[k];
  return next;
}

export interface Stored {
  place: 'keychain' | 'file';
  fallback?: string;
}

/** Under the config file's lock: two logins of one profile leave one's key and base URL together. */
export async function storeKey(
  config: ConfigFile,
  profile: string,
  values: { baseUrl?: string; apiKey: string },
  mode: StoreMode,
  o: KeyStoreOptions,
): Promise<Stored> {
  const entry = entryOf(profile, o);
  return config.update(
    profile,
    async (current): Promise<Stored> => {
      if (mode === 'file' || (mode === 'auto' && !keychainFromEnv(o.env))) {
        // The old entry must not outlive the move; a store that cannot be reached has none we could remove.
        if (keyPlaceOf(current) === 'keychain') await keychainCall({ op: 'delete', ...entry }, o);
        return { place: 'file' };
      }
      const r = await keychainCall({ op: 'set', ...entry, secret: values.apiKey }, o);
      if (r.ok) return { place: 'keychain' };
      const insecure = 'run `agents login --insecure-storage` to keep the key in the config file';
      const unlock =
        r.kind === 'refused' ? 'unlock the keychain and run `agents login --keychain` again, or ' : '';
      if (mode === 'keychain')
        throw new CliError(`${why(r)}; nothing was stored`, { hint: unlock + insecure });
      return {
        place: 'file',
        fallback: `${why(r)}: the key is stored in the config file ${config.path} (mode 0600)`,
      };
    },
    (current, stored) => {
      const next = withoutKey(current);
      if (values.baseUrl !== undefined) next['base-url'] = values.baseUrl;
      if (stored.place === 'file') next['api-key'] = values.apiKey;
      else {
        next[KEY_STORE] = 'keychain';
        // Its budget's name on the base URL it was stored for (the key's own, or the profile's).
        const baseUrl = next['base-url'];
        if (baseUrl !== undefined) {
          const { origin } = new URL(baseUrl);
          next[KEY_DIGEST] = `${origin} ${budgetDigest(origin, values.apiKey)}`;
        }
      }
      return next;
    },
  );
}

/** Says where the key was. A keychain that cannot be reached changes nothing, so `logout` can be run again. */
export async function removeKey(
  config: ConfigFile,
  profile: string,
  o: KeyStoreOptions,
): Promise<'keychain' | 'file' | undefined> {
  const entry = entryOf(profile, o);
  let place: 'keychain' | 'file' | undefined;
  await config.update(
    profile,
    async (current) => {
      place = keyPlaceOf(current);
      if (place !== 'keychain') return;
      const r = await keychainCall<boolean>({ op: 'delete', ...entry }, o);
      if (!r.ok) {
        throw new CliError(`could not remove the key of profile ${profile}: ${why(r)}`, {
          hint: 'unlock the keychain and run `agents logout` again',
        });
      }
    },
    (current) => (place === undefined ? undefined : withoutKey(current)),
  );
  return place;
}
