import type { Command } from 'commander';
import type { CommandSpec } from '../options/command-spec.js';
import type { LoginFlags } from './run.js';

export const loginSpec: CommandSpec = (program, run) =>
  program
    .command('login')
    .description(
      "check an API key against the service and store it: the key in the system's keychain, the base URL in the profile",
    )
    .option('--with-key', 'read the key from standard input (for CI and scripts)')
    .option(
      '--insecure-storage',
      "keep the key in the profile's config file (mode 0600) instead of the system's keychain",
    )
    .option('--keychain', "store the key in the system's keychain or fail: no fallback to the config file")
    .addHelpText(
      'after',
      `
At a terminal it asks for the base URL and the key (masked). Nothing is stored unless the service accepts it.
The key goes to the system's keychain (macOS Keychain, Windows Credential Manager, the Secret Service on
Linux); where none answers within 3 s it goes to the config file, and login says so. Run it again to move a
key from the file into the keychain. AGENTS_API_KEY, where set, wins over both.
Examples:
  $ agents login
  $ printf '%s' "$AGENTS_KEY" | agents login --with-key --base-url https://agents.example.com
  $ agents login --profile work
  $ agents login --insecure-storage`,
    )
    .action((flags: LoginFlags, cmd: Command) => run(cmd, load, (m, ctx) => m.login(ctx, flags)));

const load = () => import('./run.js');
