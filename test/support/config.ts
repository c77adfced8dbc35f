// Shared by the config tests: a fresh config dir per test, a clean environment pointing at it, the program
// run in-process (runMain) with that environment, and what the config file holds afterwards.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openConfigFile,
  profileOf,
  type ProfileValues,
  type Profiles,
} from '../../src/core/config/config-file.js';
import { runMain, type MainOptions } from './main.js';
import type { CliResult } from './run-cli.js';

/** A new, empty config directory. */
export function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'agents-config-test-'));
}

/**
 * An environment holding only what the CLI needs, with its own config dir, and the keychain off (the
 * keychain's tests turn it on with a keyring of their own: test/support/keyring.ts).
 */
export function cleanEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    AGENTS_CONFIG_DIR: dir,
    NO_COLOR: '1',
    AGENTS_KEYCHAIN: '0',
    ...extra,
  };
}

/** Runs `agents ARGS` in-process with `env` (nothing inherited); stdin closed unless `input` is given. */
export function agents(args: string[], env: NodeJS.ProcessEnv, o: MainOptions = {}): Promise<CliResult> {
  return runMain(args, { env, ...o });
}

/** Every profile the config file of `dir` holds ({} when there is no file). */
export function storedProfiles(dir: string): Promise<Profiles> {
  return openConfigFile({ AGENTS_CONFIG_DIR: dir }).profiles();
}

/** What one profile of the config file of `dir` holds. */
export async function stored(dir: string, profile = 'default'): Promise<ProfileValues> {
  return profileOf(await storedProfiles(dir), profile);
}
