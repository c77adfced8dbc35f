// What `agents --help` lists of `agents diff`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const diffHead: CommandHead = {
  name: 'diff',
  synopsis: '[options] [session]',
  description: 'show the change of the session’s pull request, without switching branch',
};
