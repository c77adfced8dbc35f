// What `agents --help` lists of `agents acp`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const acpHead: CommandHead = {
  name: 'acp',
  synopsis: '[options]',
  description: "serve sessions to an editor's agent panel: the Agent Client Protocol on stdio",
};
