// The root help's own entry point, dist/help.js: bin/agents.js runs it for `agents`, `agents --help`, `-h`,
// `--version` and `-V`: commander and the root, with the commands' heads as data, and none of the chunk
// every command shares, which was most of what `agents --help` cost. main() answers those lines with the
// whole program, byte for byte the same (test/unit/root-help.test.ts, test/process/startup.test.ts).
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
