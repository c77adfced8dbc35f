import { Option, type Command } from 'commander';
import type { SessionRef } from '../../../core/index.js';
import type { CommandSpec } from '../options/command-spec.js';
import { attemptOption, pullRequestOption, sessionOrPickArg } from '../options/session-args.js';
import type { DiffFlags } from './run.js';

export const diffSpec: CommandSpec = (program, run) =>
  program
    .command('diff')
    .description('show the change of the session’s pull request, without switching branch')
    .addArgument(
      sessionOrPickArg(
        'left out: the session of the branch agents checkout made, if on one (else, at a terminal, chosen from `agents ls`)',
      ),
    )
    .addOption(pullRequestOption())
    .addOption(attemptOption())
    .option('--stat', 'a diffstat instead of the patch, as git diff --stat')
    .addOption(new Option('--name-only', 'only the names of the changed files').conflicts('stat'))
    .addHelpText(
      'after',
      `
Fetches as agents checkout does, and the remote's default branch (refs/remotes/<remote>/HEAD, else as the
remote says), then prints git diff <default branch>...<pull request head>: the change since the merge base.
At a terminal git pages and colours it as it does its own diffs; in a pipe, plain.
Examples:
  $ agents diff last
  $ agents diff "$SESSION" --stat
  $ agents diff last --pr 12 > change.patch`,
    )
    .action((given: SessionRef | undefined, opts: DiffFlags, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.diff(ctx, given, opts)),
    );

const load = () => import('./run.js');
