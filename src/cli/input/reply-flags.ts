// The options create and send share for waiting on the reply, checked in the parse step, before any request.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/index.js';

/** The options of create (and, minus the agent ones, of send). */
export interface ReplyFlags {
  artifact?: string[];
  wait?: boolean;
  follow?: boolean;
  timeout?: number;
  output?: string;
  file?: string;
  notify?: boolean;
  githubOutput?: boolean;
  /** commander's negation of --no-step-summary: false when it was given. */
  stepSummary?: boolean;
  outputSchema?: string;
  schemaRetries?: number;
}

/** Checks the combinations of the flags; --output-schema implies --wait, so `flags.wait` is set here. */
export function checkReplyFlags(flags: ReplyFlags): void {
  if (flags.schemaRetries !== undefined && flags.outputSchema === undefined) {
    throw new UsageError('--schema-retries needs --output-schema');
  }
  if (flags.outputSchema !== undefined) {
    if (flags.follow)
      throw new UsageError('--output-schema waits for the final reply: choose it or --follow');
    flags.wait = true;
  }
  if (flags.wait && flags.follow) throw new UsageError('choose one of --wait and --follow');
  if (flags.output !== undefined && !flags.wait) throw new UsageError('--output needs --wait');
  if (flags.timeout !== undefined && !flags.wait && !flags.follow)
    throw new UsageError('--timeout needs --wait or --follow');
  if (flags.notify && !flags.wait && !flags.follow) throw new UsageError('--notify needs --wait or --follow');
  if (flags.githubOutput && !flags.wait) throw new UsageError('--github-output needs --wait');
  if (flags.output !== undefined) checkOutputPath(flags.output, '--output');
}

/** A file an option will write: refused now, before anything is sent, when it cannot be written. */
export function checkOutputPath(path: string, flag: string): void {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // Not there yet (the usual case), or not reachable: the directory check below says which.
  }
  if (path === '' || /[/\\]$/.test(path) || isDir) {
    throw new UsageError(`${flag} needs a file name, not a directory: ${JSON.stringify(path)}`);
  }
  const dir = dirname(resolve(path));
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write ${flag} ${path}: ${dir} is missing or not writable`);
  }
}
