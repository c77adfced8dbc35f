// Words people type for our commands (kubectl's `logs`, gh's `view`): commander's suggestions go by
// spelling alone and would offer `login` for `logs`.
import type { Command } from 'commander';
import { answerUnknownCommand } from '../commands/options/commander-private.js';

const SYNONYMS: Record<string, string> = {
  logs: 'tail',
  log: 'tail',
  follow: 'tail',
  watch: 'tail',
  new: 'create',
  start: 'create',
  run: 'create',
  reply: 'send',
  message: 'send',
  view: 'show',
  get: 'show',
  cat: 'show',
  status: 'show',
};

/** An unknown command that is one of our synonyms is answered with the command it means. */
export function suggestSynonyms(program: Command): void {
  answerUnknownCommand(program, (name) => {
    const synonym = Object.hasOwn(SYNONYMS, name) ? SYNONYMS[name] : undefined;
    if (synonym === undefined || !program.commands.some((c) => c.name() === synonym)) return undefined;
    return `error: unknown command '${name}'\n(Did you mean ${synonym}?)`;
  });
}
