import type { Command } from 'commander';
import type { CommandSpec } from '../options/command-spec.js';

const KEY = 'api-key, base-url, agent, budget-url or notify';

export const configSpec: CommandSpec = (program, run) => {
  const config = program
    .command('config')
    .description('show and change the settings of a profile (--profile NAME; default "default")')
    .addHelpText(
      'after',
      `
Keys: api-key, base-url, agent, budget-url, notify. list and get show the value in effect (flag > env > profile), a key masked.
notify says how a finished turn is announced: terminal, off, or a JSON array naming a program and its arguments.
Examples:
  $ agents config list
  $ agents config set base-url https://agents.example.com
  $ agents --profile work config set agent codex
  $ agents config set notify '["notify-send", "agents"]'
  $ agents config path`,
    );
  const sub = (name: string, description: string) => config.command(name).description(description);
  sub('list', 'the settings in effect and where each comes from (the key masked)').action(
    (_opts: object, cmd: Command) => run(cmd, load, (m, ctx) => m.configList(ctx)),
  );
  sub('get', 'print the value in effect for KEY (api-key masked)')
    .argument('<key>', KEY)
    .action((key: string, _opts: object, cmd: Command) => run(cmd, load, (m, ctx) => m.configGet(ctx, key)));
  sub('set', 'store KEY in the profile (for api-key prefer `agents login --with-key`)')
    .argument('<key>', KEY)
    .argument('<value>')
    .action((key: string, value: string, _opts: object, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.configSet(ctx, key, value)),
    );
  sub('unset', 'remove KEY from the profile')
    .argument('<key>', KEY)
    .action((key: string, _opts: object, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.configUnset(ctx, key)),
    );
  sub('path', 'print where the config file is').action((_opts: object, cmd: Command) =>
    run(cmd, load, (m, ctx) => m.showConfigPath(ctx)),
  );
  return config;
};

const load = () => import('./run.js');
