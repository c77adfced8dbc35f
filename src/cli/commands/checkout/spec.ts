import type { Command } from 'commander';
import type { SessionRef } from '../../../core/index.js';
import type { CommandSpec } from '../options/command-spec.js';
import { attemptOption, pullRequestOption, sessionOrPickArg } from '../options/session-args.js';
import type { CheckoutFlags } from './run.js';

export const checkoutSpec: CommandSpec = (program, run) =>
  program
    .command('checkout')
    .description('put the session’s pull request on a local branch of this clone and switch to it')
    .addArgument(sessionOrPickArg())
    .addOption(pullRequestOption())
    .addOption(attemptOption())
    .option('--branch <name>', 'the local branch (default agents/<first 8 of the session id>-pr<N>)')
    .option(
      '--force',
      'move the branch to the pull request’s head even if this command did not make it, or it has commits the head does not (they are dropped)',
    )
    .addHelpText(
      'after',
      `
With git alone (no token, no gh): the remote of this clone whose URL names the pull request's repository
(https, ssh or git@host: forms; GitHub and GitHub Enterprise) is fetched from (refs/pull/<N>/head). Run it
again after the agent pushed more: the branch moves to the new head, only by fast-forward (commits of yours
on it are never dropped). It refuses, changing nothing (exit 2), outside a clone, with uncommitted changes,
with a --branch git reads as another branch (@, @{-1}), with no remote naming the repository, when the
branch exists and this command did not make it, when it has commits the pull request's head does not, or
when the pull request would overwrite a file git does not track here (ignored ones included). A session
without a pull request yet: exit 4. To rehearse it with the emulator: docs/terminal.md.
Examples:
  $ agents checkout last
  $ agents checkout "$SESSION" --pr 12
  $ agents checkout last --json`,
    )
    .action((given: SessionRef | undefined, opts: CheckoutFlags, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.checkout(ctx, given, opts)),
    );

const load = () => import('./run.js');
