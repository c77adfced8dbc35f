import { Option, type Command } from 'commander';
import type { SessionRef } from '../../../core/index.js';
import { withThreadSession, type ThreadOption } from '../../input/wait-ref.js';
import { intOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import { readTimeoutOption, sessionOrPickArg, threadOption } from '../options/session-args.js';
import type { ShowFlags } from './run.js';

type ShowOptions = Omit<ShowFlags, 'thread'> & { thread?: ThreadOption };

export const showSpec: CommandSpec = (program, run) =>
  program
    .command('show')
    .description('print a session and its conversation, oldest first, grouped by turn')
    .addArgument(sessionOrPickArg())
    .addOption(threadOption())
    .option('--tools', 'include tool calls')
    .addOption(
      new Option('--limit <n>', 'the newest N messages (default 50)')
        .argParser(intOption(1, 100_000))
        .conflicts('all'),
    )
    .option('--all', 'every message')
    .option('--verbose', 'on a terminal: the ids of the session, its turns and messages')
    .option(
      '--no-pager',
      'on a terminal: never page (default: AGENTS_PAGER, PAGER, or less -FRX when taller than the screen)',
    )
    .option('--web', 'open the session in the browser instead (its address is printed where none opens)')
    .addOption(readTimeoutOption())
    .addHelpText(
      'after',
      `\nExamples:\n  $ agents show last\n  $ agents show last --web\n  $ agents show "$SESSION" --all --json > session.json`,
    )
    .action((given: SessionRef | undefined, opts: ShowOptions, cmd: Command) => {
      const ref = withThreadSession(given, opts.thread);
      const flags: ShowFlags = { ...opts, thread: opts.thread?.threadId };
      return run(cmd, load, (m, ctx) => m.show(ctx, ref, flags));
    });

const load = () => import('./run.js');
