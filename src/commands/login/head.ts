// What `agents --help` lists of `agents login`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const loginHead: CommandHead = {
  name: 'login',
  synopsis: '[options]',
  description: 'check an API key against the service and store it with the base URL in the profile',
};
