// What `agents --help` lists of `agents artifact`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const artifactHead: CommandHead = {
  name: 'artifact',
  synopsis: '[options] <session> <artifact-id>',
  description: 'download one artifact of a session (a plan iteration or a file)',
};
