// What `agents --help` lists of `agents plan`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const planHead: CommandHead = {
  name: 'plan',
  synopsis: '[options] [session]',
  description: 'print the latest plan the agent wrote (markdown)',
};
