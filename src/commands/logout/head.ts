// What `agents --help` lists of `agents logout`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const logoutHead: CommandHead = {
  name: 'logout',
  synopsis: '',
  description: 'remove the API key of the profile',
};
