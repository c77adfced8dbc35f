// A file-system failure as one line that names the file and says what to do, instead of a raw
// `EPERM: operation not permitted, rename '…config.json.tmp-…'`.
import { CliError } from './cli-error.js';
import { errorMessage } from '../../util/text.js';

const WHY: Record<string, [string, string]> = {
  EACCES: ['permission denied', 'check the owner and mode of the file and its directory'],
  EPERM: ['operation not permitted', 'check the owner and mode of the file and its directory, and chattr +i'],
  EROFS: [
    'the file system is read-only',
    'point AGENTS_CONFIG_DIR / AGENTS_STATE_DIR at a writable directory',
  ],
  ENOSPC: ['no space left on the device', 'free some space, then try again'],
  EDQUOT: ['the disk quota is exceeded', 'free some space, then try again'],
  EISDIR: ['it is a directory', 'remove or rename the directory'],
  ENOTDIR: ['a part of its path is not a directory', 'check the path'],
  // mkdir of a directory on the way, where a file stands.
  EEXIST: ['a part of its path is not a directory', 'check the path'],
  ELOOP: ['too many symbolic links', 'check the path'],
  EMFILE: ['too many open files', 'try again'],
};

export function fsCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** One CliError for a failure to read or write `path`; `what` names the file for a person ("the config file"). */
export function fileError(what: string, path: string, doing: 'read' | 'write', err: unknown): CliError {
  const code = fsCode(err);
  const [why, hint] = (code && WHY[code]) ?? [code ?? errorMessage(err), 'check the file and its directory'];
  return new CliError(`cannot ${doing} ${what} ${path}: ${why}`, { hint, cause: err });
}
