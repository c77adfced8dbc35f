// What `agents --help` lists of `agents completion`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const completionHead: CommandHead = {
  name: 'completion',
  synopsis: '<shell>',
  description: 'print a completion script for bash, zsh or fish',
};
