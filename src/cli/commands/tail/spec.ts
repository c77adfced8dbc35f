import type { Command } from 'commander';
import { type SessionRef, UsageError } from '../../../core/index.js';
import { withThreadSession, type ThreadOption } from '../../input/wait-ref.js';
import { durationOption, intOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import { sessionOrPickArg, threadOption } from '../options/session-args.js';
import type { TailFlags } from './run.js';
import { sinceOption } from './since.js';

type TailOptions = Omit<TailFlags, 'thread'> & { thread?: ThreadOption };

export const tailSpec: CommandSpec = (program, run) =>
  program
    .command('tail')
    .description('print the last messages, then follow new ones as they land')
    .addArgument(sessionOrPickArg())
    .option('-n, --lines <n>', 'how many existing messages to print first', intOption(0, 10_000), 10)
    .option(
      '--since <time>',
      'print the existing messages since then: 10m, 2h or an ISO 8601 time',
      sinceOption,
    )
    .addOption(threadOption())
    .option('--tools', 'include tool calls')
    .option('--until-final', "exit 0 after the latest turn's final message")
    .option('--notify', 'with --until-final: ring the bell and notify the desktop when it ends')
    .option('--no-notify', 'no notification for this run, whatever the notify setting says')
    .option(
      '--timeout <duration>',
      'stop after this long: 90s, 20m, 1h or seconds (exit 124)',
      durationOption,
    )
    .addHelpText(
      'after',
      `\nExamples:\n  $ agents tail last\n  $ agents tail "$SESSION" --until-final --json | jq -r .message`,
    )
    .action((given: SessionRef | undefined, opts: TailOptions, cmd: Command) => {
      if (opts.notify === true && !opts.untilFinal) throw new UsageError('--notify needs --until-final');
      const ref = withThreadSession(given, opts.thread);
      // With --since alone, every message since then; with -n as well, both limits apply.
      const counted = opts.since === undefined || cmd.getOptionValueSource('lines') !== 'default';
      const lines = counted ? opts.lines : undefined;
      return run(cmd, load, (m, ctx) => m.tail(ctx, ref, { ...opts, lines, thread: opts.thread?.threadId }));
    });

const load = () => import('./run.js');
