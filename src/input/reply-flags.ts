// The options create and send share for waiting on the reply, checked before anything is read or sent.
import { access, constants, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** The options of create (and, minus the agent ones, of send). */
export interface ReplyFlags {
  artifact?: string[];
  wait?: boolean;
  follow?: boolean;
  timeout?: number;
  output?: string;
  file?: string;
}

/** Checks the combinations of --wait, --follow, --timeout and --output, and that --output can be written. */
export async function checkReplyFlags(flags: ReplyFlags): Promise<void> {
  if (flags.wait && flags.follow) throw new UsageError('choose one of --wait and --follow');
  if (flags.output !== undefined && !flags.wait) throw new UsageError('--output needs --wait');
  if (flags.timeout !== undefined && !flags.wait && !flags.follow) {
    throw new UsageError('--timeout needs --wait or --follow');
  }
  if (flags.output !== undefined) {
    // A path that can only be a directory is found now, not after the session was created.
    const isDir = await stat(flags.output).then(
      (st) => st.isDirectory(),
      () => false,
    );
    if (flags.output === '' || /[/\\]$/.test(flags.output) || isDir) {
      throw new UsageError(`--output needs a file name, not a directory: ${JSON.stringify(flags.output)}`);
    }
    const dir = dirname(resolve(flags.output));
    try {
      await access(dir, constants.W_OK);
    } catch {
      throw new UsageError(`cannot write --output ${flags.output}: ${dir} is missing or not writable`);
    }
  }
}
