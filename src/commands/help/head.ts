// What `agents --help` lists of `agents help`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const helpHead: CommandHead = {
  name: 'help',
  synopsis: '[command...]',
  description: 'display help for a command',
};
