import type { Command } from 'commander';
import type { CommandSpec } from '../options/command-spec.js';
import type { BudgetFlags } from './run.js';

export const budgetSpec: CommandSpec = (program, run) =>
  program
    .command('budget')
    .description('show the key’s request budget as this machine (or, with a Redis budget, the fleet) sees it')
    .option('--watch', 'redraw once a second (NDJSON once a second in a pipe) until Ctrl-C')
    .addHelpText(
      'after',
      `
The requests of the last 60 s against the limit, the requests waiting for a slot and the waits polling
(by process and command), when the next slot frees, and the 429s of the last hour. It sends nothing to
the service: it reads this machine's budget file, or the Redis of AGENTS_BUDGET_URL (budget_url).
Examples:
  $ agents budget
  $ agents budget --json
  $ agents budget --watch --profile ci`,
    )
    .action((opts: BudgetFlags, cmd: Command) => run(cmd, load, (m, ctx) => m.budget(ctx, opts)));

const load = () => import('./run.js');
