// What `agents --help` lists of `agents wait`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const waitHead: CommandHead = {
  name: 'wait',
  synopsis: '[options] [ref...]',
  description: 'wait for the final reply of each session or thread given, printing each as it lands',
};
