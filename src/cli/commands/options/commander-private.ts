// The one module that reaches into commander's private parts: unknownCommand(), the method that reports
// `args[0]` as an unknown command with its spelling suggestion (not in commander's types). An upgrade that
// changes it fails test/unit/commander-private.test.ts rather than the help command or our synonyms.
import type { Command } from 'commander';

type Unknowing = Command & { unknownCommand(): never };

/** Ends as commander ends on `name`, an unknown subcommand of `cmd`: its error, with its suggestion. */
export function failUnknownCommand(cmd: Command, name: string): never {
  cmd.args = [name];
  return (cmd as Unknowing).unknownCommand();
}

/** An unknown subcommand of `cmd` gets the error `answer(name)` gives; none: commander's own. */
export function answerUnknownCommand(cmd: Command, answer: (name: string) => string | undefined): void {
  const unknowing = cmd as Unknowing;
  const builtIn = unknowing.unknownCommand.bind(unknowing);
  unknowing.unknownCommand = function unknownCommand(this: Command) {
    const message = answer(this.args[0] ?? '');
    if (message === undefined) return builtIn();
    this.error(message, { code: 'commander.unknownCommand' });
  };
}
