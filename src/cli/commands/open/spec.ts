import type { Command } from 'commander';
import type { SessionRef } from '../../../core/index.js';
import type { CommandSpec } from '../options/command-spec.js';
import { sessionOrPickArg } from '../options/session-args.js';

export const openSpec: CommandSpec = (program, run) =>
  program
    .command('open')
    .description('open a session in the browser (its address is printed where no browser can start)')
    .addArgument(sessionOrPickArg())
    .addHelpText(
      'after',
      `
No browser is started under CI, over SSH or without a display: the address is printed on stdout instead.
Examples:
  $ agents open last
  $ agents open "$SESSION"`,
    )
    .action((ref: SessionRef | undefined, _opts: object, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.open(ctx, ref)),
    );

const load = () => import('./run.js');
