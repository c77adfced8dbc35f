// Where agents keeps its files: config where conf (env-paths) puts it; state apart, as the XDG spec asks.
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';
import type { Env } from '../io/io.js';

const NAME = 'agents';

/** AGENTS_CONFIG_DIR when set (several setups on one account, tests), else conf's. */
export function configDir(env: Env): string {
  const override = env.AGENTS_CONFIG_DIR;
  if (override !== undefined && override !== '') return resolve(override);
  return envPaths(NAME, { suffix: '' }).config;
}

export function configPath(env: Env): string {
  return join(configDir(env), 'config.json');
}

/** AGENTS_STATE_DIR, else AGENTS_CONFIG_DIR (one directory for all, as tests want), else the platform's. */
export function stateDir(env: Env, platform: NodeJS.Platform): string {
  if (env.AGENTS_STATE_DIR) return resolve(env.AGENTS_STATE_DIR);
  if (env.AGENTS_CONFIG_DIR) return resolve(env.AGENTS_CONFIG_DIR);
  const paths = envPaths(NAME, { suffix: '' });
  return platform === 'darwin' || platform === 'win32' ? paths.data : paths.log;
}
