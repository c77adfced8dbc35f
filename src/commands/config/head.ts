// What `agents --help` lists of `agents config`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const configHead: CommandHead = {
  name: 'config',
  synopsis: '',
  description: 'show and change the settings of a profile (--profile NAME; default "default")',
};
