// What `agents --help` lists of `agents budget`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const budgetHead: CommandHead = {
  name: 'budget',
  synopsis: '[options]',
  description: 'show the key’s request budget as this machine (or, with a Redis budget, the fleet) sees it',
};
