import { Argument, type Command } from 'commander';
import { MAX_SESSIONS, type SessionRef, sessionRefArg } from '../../../core/index.js';
import { intOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import type { LsFlags } from './run.js';

export const lsSpec: CommandSpec = (program, run) =>
  program
    .command('ls')
    .description('list the sessions this machine created or sent to (this profile), latest first')
    .addArgument(
      new Argument(
        '[group]',
        'only the attempts of this session group (its id, or last after create --attempts)',
      ).argParser(sessionRefArg),
    )
    .option('--limit <n>', 'at most N sessions (default 20)', intOption(1, MAX_SESSIONS), 20)
    .option('--refresh', 'ask the service for the title and state of each one listed (3 requests each)')
    .addHelpText(
      'after',
      `
The API cannot list sessions: agents keeps the last ${MAX_SESSIONS} this machine created or sent to, per profile.
Piped: one line each, tab-separated (id, title, agent, state, created); --json: an array.
Examples:
  $ agents ls
  $ agents ls --refresh --limit 5
  $ agents ls --json | jq -r '.[0].id'
  $ agents ls last          # right after create --attempts: its attempts`,
    )
    .action((group: SessionRef | undefined, flags: LsFlags, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.ls(ctx, { ...flags, group })),
    );

const load = () => import('./run.js');
