// What `agents --help` lists of `agents create`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const createHead: CommandHead = {
  name: 'create',
  synopsis: '[options] [message...]',
  description: 'create a session with a first message',
};
