// The root help's own entry, dist/help.js, for `agents`, `--help`, `-h`, `--version`, `-V`: the root with the
// commands' heads as data, none of the commands' chunk (most of what `--help` cost); main() prints the same.
import { CommanderError } from 'commander';
import { ExitCode } from '../core/index.js';
import { commanderExitCode, commanderOutput } from './program/commander-io.js';
import { rootHelpProgram, type CommandHead } from './program/root.js';

/** The heads of the whole program's commands (root.ts's headsOf) as JSON, put here by the build. */
declare const __AGENTS_HEADS__: string;

/** Prints the root help on the process's streams and sets its exit code, as run() and main() would. */
export async function run(): Promise<void> {
  // `agents --help | head -1`: a reader that goes away is no failure, and no stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  const heads = JSON.parse(__AGENTS_HEADS__) as CommandHead[];
  const program = rootHelpProgram(commanderOutput(process), heads);
  try {
    await program.parseAsync(process.argv.slice(2), { from: 'user' });
    process.exitCode = ExitCode.OK;
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    process.exitCode = commanderExitCode(err);
  }
}
