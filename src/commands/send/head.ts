// What `agents --help` lists of `agents send`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const sendHead: CommandHead = {
  name: 'send',
  synopsis: '[options] [session] [message...]',
  description: 'post a follow-up: starts a new thread and interrupts the turn in progress',
};
