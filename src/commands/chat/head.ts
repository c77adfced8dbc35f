// What `agents --help` lists of `agents chat`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const chatHead: CommandHead = {
  name: 'chat',
  synopsis: '[options] [session]',
  description: 'a conversation with an agent at the terminal: type, watch it work, reply',
};
