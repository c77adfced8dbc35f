// agents completion <shell>, and the hidden `agents __complete` the completion scripts call.
import { Argument, type Command } from 'commander';
import type { CommandSpec } from '../options/command-spec.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export const completionSpec: CommandSpec = (program, run) => {
  const completion = program
    .command('completion')
    .description('print a completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText(
      'after',
      `
Commands, options, agent names, and session ids from \`agents ls\` complete with Tab.
Examples:
  $ source <(agents completion bash)          # in ~/.bashrc
  $ source <(agents completion zsh)           # in ~/.zshrc (after compinit)
  $ agents completion fish > ~/.config/fish/completions/agents.fish`,
    )
    .action((shell: (typeof SHELLS)[number], _opts: object, cmd: Command) =>
      // The script is written from the whole program, as built: every command and option of this version.
      run(cmd, load, (m) => m.completion(program, shell)),
    );
  // What the completion scripts call for session ids (the state file alone: no request, no key needed).
  program
    .command('__complete', { hidden: true })
    .argument('<what>')
    .action((what: string, _opts: object, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.completeWords(ctx, what)),
    );
  return completion;
};

const load = () => import('./run.js');
