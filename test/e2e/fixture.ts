// One emulator per test, and the program run in-process against it (as a script: pipes, no terminal).
import { afterEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { cliEnv, type CliResult } from '../support/run-cli.js';
import { runMain, type MainOptions } from '../support/main.js';

export const KEY = 'agents-dev-key';
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

export interface Fixture {
  em: RunningEmulator;
  env: NodeJS.ProcessEnv;
  /** Runs `agents …` against this emulator, in-process. */
  run: (args: string[], o?: MainOptions) => Promise<CliResult>;
}

export async function fixture(
  opts: EmulatorOptions = {},
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Fixture> {
  const em = await startEmulator({ port: 0, timeScale: 0.05, rateLimit: false, ...opts });
  running.push(em);
  const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...extraEnv });
  return { em, env, run: (args, o = {}) => runMain(args, { env, ...o }) };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
