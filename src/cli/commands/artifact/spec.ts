import { checkOutputPath } from '../../input/reply-flags.js';
import type { Command } from 'commander';
import type { SessionRef } from '../../../core/index.js';
import { uuidOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import { readTimeoutOption, sessionArg } from '../options/session-args.js';
import type { DownloadFlags } from '../options/artifact-output.js';

export const artifactSpec: CommandSpec = (program, run) =>
  program
    .command('artifact')
    .description('download one artifact of a session (a plan iteration or a file)')
    .addArgument(sessionArg())
    .argument('<artifact-id>', "the artifact's id (a UUID)", uuidOption)
    .option('-o, --output <file>', 'write it to FILE instead of stdout')
    .addOption(readTimeoutOption())
    .addHelpText(
      'after',
      `
The download link is presigned and on another host: it is fetched without the API key.
With --json: the artifact's record (name, size, type, link).
Examples:
  $ agents artifact "$SESSION" "$ARTIFACT" -o report.pdf`,
    )
    .action(async (ref: SessionRef, artifactId: string, flags: DownloadFlags, cmd: Command) => {
      // -o names a file that can be written, found before anything is downloaded.
      if (flags.output !== undefined) checkOutputPath(flags.output, '-o');
      return run(cmd, load, (m, ctx) => m.artifact(ctx, ref, artifactId, flags));
    });

const load = () => import('./run.js');
