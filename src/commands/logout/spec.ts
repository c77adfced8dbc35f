// agents logout.
import type { Command } from 'commander';
import type { CommandSpec } from '../options/command-spec.js';
import { logoutHead } from './head.js';

export const logoutSpec: CommandSpec = (program, run) =>
  program
    .command(logoutHead.name)
    .description(logoutHead.description)
    .action((_opts: object, cmd: Command) => run(cmd, async (ctx) => (await import('./run.js')).logout(ctx)));
