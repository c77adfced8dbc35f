import { checkOutputPath } from '../../input/reply-flags.js';
import type { Command } from 'commander';
import type { SessionRef } from '../../../core/index.js';
import type { CommandSpec } from '../options/command-spec.js';
import { readTimeoutOption, sessionOrPickArg } from '../options/session-args.js';
import type { DownloadFlags } from '../options/artifact-output.js';

export const planSpec: CommandSpec = (program, run) =>
  program
    .command('plan')
    .description('print the latest plan the agent wrote (markdown)')
    .addArgument(sessionOrPickArg())
    .option('-o, --output <file>', 'write it to FILE instead of stdout')
    .addOption(readTimeoutOption())
    .addHelpText(
      'after',
      `
With --json: {"artifact": {…}, "text": "…markdown…"}. Exit 4 when the session has no plan.
Examples:
  $ agents plan last
  $ agents plan "$SESSION" -o plan.md`,
    )
    .action(async (ref: SessionRef | undefined, flags: DownloadFlags, cmd: Command) => {
      // -o names a file that can be written, found before anything is downloaded.
      if (flags.output !== undefined) checkOutputPath(flags.output, '-o');
      return run(cmd, load, (m, ctx) => m.plan(ctx, ref, flags));
    });

const load = () => import('./run.js');
