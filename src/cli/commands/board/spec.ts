import type { Command } from 'commander';
import { MAX_SESSIONS } from '../../../core/index.js';
import { intOption } from '../options/option-values.js';
import { addNotifyOptions } from '../options/reply-options.js';
import type { CommandSpec } from '../options/command-spec.js';
import type { BoardOptions } from './board.js';

export const boardSpec: CommandSpec = (program, run) =>
  addNotifyOptions(
    program
      .command('board')
      .description('the sessions ls lists, live and full screen: open, follow, reply, create, check out')
      .option('--limit <n>', 'at most N sessions', intOption(1, MAX_SESSIONS), 50),
    'ring the bell and notify the desktop when a session finishes while another is selected',
  )
    .addHelpText(
      'after',
      `
Keys: ↑/↓ or j/k move, Enter opens the session in chat (back here when it ends), t follows it (q comes
back), s shows it, r replies, n starts a new session, c checks its pull request out, d shows its diff,
o opens it in the browser, / filters, R asks about every session again, q or Ctrl-C leaves.
Working sessions are polled (the busiest first) within part of the key's budget; finished ones only on R.
For people: with standard output not a terminal it prints what agents ls prints (--json: its JSON).
Examples:
  $ agents board
  $ agents board --notify`,
    )
    .action((flags: BoardOptions, cmd: Command) => run(cmd, load, (m, ctx) => m.board(ctx, flags)));

const load = () => import('./run.js');
