// What `agents --help` lists of `agents show`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const showHead: CommandHead = {
  name: 'show',
  synopsis: '[options] [session]',
  description: 'print a session and its conversation, oldest first, grouped by turn',
};
