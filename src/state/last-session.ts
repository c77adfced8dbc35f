// The `last` session reference: the most recent session this machine created or sent to, per profile.
// A small JSON file in the user's state directory, replaced atomically (write + rename) so that two
// processes finishing at once leave a valid file (the later one wins).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { withFileLock } from '../util/file-lock.js';

/** What `last` resolves to. */
export interface LastSession {
  id: string;
  /** The thread of the latest create or send, so `tail last` can resume it. */
  threadId?: string;
  at: string;
}

interface StateFile {
  version: 1;
  last: Record<string, LastSession>;
}

/** The state directory: AGENTS_STATE_DIR, else AGENTS_CONFIG_DIR (tests), else the platform's. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AGENTS_STATE_DIR) return env.AGENTS_STATE_DIR;
  if (env.AGENTS_CONFIG_DIR) return env.AGENTS_CONFIG_DIR;
  if (process.platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'agents');
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'agents');
}

function statePath(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'state.json');
}

function read(env: NodeJS.ProcessEnv): StateFile {
  try {
    const parsed = JSON.parse(readFileSync(statePath(env), 'utf8')) as Partial<StateFile>;
    if (parsed && typeof parsed.last === 'object' && parsed.last !== null) {
      return { version: 1, last: parsed.last };
    }
  } catch {
    // Missing or unreadable: start afresh rather than fail a command over a convenience file.
  }
  return { version: 1, last: {} };
}

/** The last session of a profile, if any. */
export function readLastSession(
  profile: string,
  env: NodeJS.ProcessEnv = process.env,
): LastSession | undefined {
  const entry = read(env).last[profile];
  return entry && typeof entry.id === 'string' ? entry : undefined;
}

/** Records the last session of a profile. Never throws: failing to remember must not fail the command. */
export function writeLastSession(
  profile: string,
  entry: Omit<LastSession, 'at'>,
  env: NodeJS.ProcessEnv = process.env,
): void {
  try {
    const dir = stateDir(env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Read, change, rename under a lock: two profiles' commands at once must not drop each other's entry.
    withFileLock(
      statePath(env),
      () => {
        const state = read(env);
        state.last[profile] = { ...entry, at: new Date().toISOString() };
        const tmp = join(dir, `.state.json.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
        writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
        renameSync(tmp, statePath(env));
      },
      () => undefined,
    );
  } catch {
    // See above.
  }
}
