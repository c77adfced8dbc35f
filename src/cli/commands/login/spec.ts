// agents login: its options and help.
import type { Command } from 'commander';
import type { CommandSpec } from '../options/command-spec.js';
import type { LoginFlags } from './run.js';

export const loginSpec: CommandSpec = (program, run) =>
  program
    .command('login')
    .description('check an API key against the service and store it with the base URL in the profile')
    .option('--with-key', 'read the key from standard input (for CI and scripts)')
    .addHelpText(
      'after',
      `
At a terminal it asks for the base URL and the key (masked). Nothing is stored unless the service accepts it.
Examples:
  $ agents login
  $ printf '%s' "$AGENTS_KEY" | agents login --with-key --base-url https://agents.example.com
  $ agents login --profile work`,
    )
    .action((flags: LoginFlags, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./run.js')).login(ctx, flags)),
    );
