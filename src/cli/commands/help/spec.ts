// agents help [command...]: our own, because commander's prints the whole help for a command it does not
// know; this one ends as running that unknown command would, with the same error and suggestion.
import type { CommandSpec } from '../options/command-spec.js';
import { failUnknownCommand } from '../options/commander-private.js';

export const helpSpec: CommandSpec = (program) =>
  program
    .command('help')
    .description('display help for a command')
    .argument('[command...]', 'the command, and a subcommand of it')
    .action((names: string[]) => {
      let target = program;
      for (const name of names) {
        const next = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (next === undefined) failUnknownCommand(target, name);
        target = next;
      }
      target.help();
    });
