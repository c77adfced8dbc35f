// The state file: what this machine remembers between runs. conf replaces it atomically; a lock serialises
// read-modify-write, so two commands at once cannot drop each other's entry. Mode 0600 in a 0700 directory.
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Env } from '../io/io.js';
import { stateDir } from '../config/locations.js';
import { isObject } from '../../util/json.js';
import { LockError, withLock } from '../../util/lock.js';
import { fileError, fsCode } from '../errors/file-errors.js';

/** Unknown or malformed parts are dropped on read, never fatal. */
export type StateData = Record<string, unknown>;

export interface StateFile {
  readonly path: string;
  read(): Promise<StateData>;
  /** Applies `edit` to the current contents under the lock; a CliError naming the file when it cannot. */
  update(edit: (data: StateData) => StateData): Promise<void>;
  /** Whether the file could be written now (false on a read-only or immutable file or directory). */
  writable(): boolean;
  remove(): boolean;
}

/** A damaged state file is a convenience lost, not an error: start afresh. */
function parseState(text: string): StateData {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** The state file for this environment; a write waits up to `lockWaitMs` for another process to let go. */
export function openStateFile(env: Env, platform: NodeJS.Platform, lockWaitMs?: number): StateFile {
  const dir = stateDir(env, platform);
  const path = join(dir, 'state.json');
  return {
    path,
    // A plain read: conf (a chunk of its own) is loaded only to write.
    read: () => readFile(path, 'utf8').then(parseState, () => ({})),
    async update(edit) {
      try {
        mkdirSync(dirname(dir), { recursive: true });
        if (!existsSync(dir)) mkdirSync(dir, { mode: 0o700 });
        await withLock(
          path,
          async () => {
            const { default: Conf } = await import('conf');
            const conf = new Conf<StateData>({
              cwd: dir,
              configName: 'state',
              configFileMode: 0o600,
              accessPropertiesByDotNotation: false,
              clearInvalidConfig: false,
              deserialize: parseState,
            });
            conf.store = edit(conf.store);
          },
          lockWaitMs,
        );
      } catch (err) {
        const cause = err instanceof LockError ? err.cause : err;
        throw fileError('the state file', path, 'write', fsCode(cause) ? cause : err);
      }
    },
    remove() {
      try {
        rmSync(path, { force: true });
        return true;
      } catch {
        return false;
      }
    },
    writable() {
      try {
        // The directory takes the atomic rename (or, not there yet, the nearest one that will hold it);
        // an existing file must take writes too (a read-only or immutable one would keep an old `last`).
        let probe = dir;
        while (!existsSync(probe) && dirname(probe) !== probe) probe = dirname(probe);
        if (!statSync(probe).isDirectory()) return false;
        accessSync(probe, constants.W_OK);
        const file = existsSync(path) ? statSync(path) : undefined;
        if (file?.isFile() === false) return false;
        if (file !== undefined) accessSync(path, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}
