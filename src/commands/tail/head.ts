// What `agents --help` lists of `agents tail`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const tailHead: CommandHead = {
  name: 'tail',
  synopsis: '[options] [session]',
  description: 'print the last messages, then follow new ones as they land',
};
