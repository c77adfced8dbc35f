// What `agents --help` lists of `agents mcp`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const mcpHead: CommandHead = {
  name: 'mcp',
  synopsis: '[options]',
  description: 'serve sessions as tools to a local agent: the Model Context Protocol on stdio',
};
