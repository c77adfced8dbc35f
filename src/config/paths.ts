// Where the config file lives. The same directory conf would pick for projectName 'agents' with no suffix
// (env-paths' `config`), computed here so that reading settings never has to load conf.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The config directory: AGENTS_CONFIG_DIR when set (tests, several setups on one account), else the platform's. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.AGENTS_CONFIG_DIR;
  if (override !== undefined && override !== '') return resolve(override);
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'agents');
  if (process.platform === 'win32') {
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'agents', 'Config');
  }
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'agents');
}

/** The config file. */
export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.json');
}
