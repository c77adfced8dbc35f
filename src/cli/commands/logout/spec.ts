import type { Command } from 'commander';
import type { CommandSpec } from '../options/command-spec.js';

export const logoutSpec: CommandSpec = (program, run) =>
  program
    .command('logout')
    .description('remove the API key of the profile')
    .action((_opts: object, cmd: Command) => run(cmd, load, (m, ctx) => m.logout(ctx)));

const load = () => import('./run.js');
