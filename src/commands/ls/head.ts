// What `agents --help` lists of `agents ls`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const lsHead: CommandHead = {
  name: 'ls',
  synopsis: '[options]',
  description: 'list the sessions this machine created or sent to (this profile), latest first',
};
