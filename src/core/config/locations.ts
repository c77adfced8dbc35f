// Where agents keeps its files. The config directory is conf's own choice (env-paths, the library conf
// uses, with the same name and no suffix), so `agents config path` and conf always agree; AGENTS_CONFIG_DIR
// moves it. State (the `last` session, the shared request budget) lives apart, as the XDG spec asks.
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

/** As conf names it. */
export function configPath(env: Env): string {
  return join(configDir(env), 'config.json');
}

/**
 * AGENTS_STATE_DIR, else AGENTS_CONFIG_DIR (one directory for everything, as tests and portable setups
 * want), else $XDG_STATE_HOME/agents on Linux, the application-data directory on macOS and Windows.
 */
export function stateDir(env: Env, platform: NodeJS.Platform): string {
  if (env.AGENTS_STATE_DIR) return resolve(env.AGENTS_STATE_DIR);
  if (env.AGENTS_CONFIG_DIR) return resolve(env.AGENTS_CONFIG_DIR);
  const paths = envPaths(NAME, { suffix: '' });
  return platform === 'darwin' || platform === 'win32' ? paths.data : paths.log;
}
