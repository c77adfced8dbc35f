// What `agents --help` lists of `agents checkout`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const checkoutHead: CommandHead = {
  name: 'checkout',
  synopsis: '[options] [session]',
  description: 'put the session’s pull request on a local branch of this clone and switch to it',
};
