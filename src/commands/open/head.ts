// What `agents --help` lists of `agents open`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const openHead: CommandHead = {
  name: 'open',
  synopsis: '[session]',
  description: 'open a session in the browser (its address is printed where no browser can start)',
};
