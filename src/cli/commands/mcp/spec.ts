import type { Command } from 'commander';
import type { CommandSpec } from '../options/command-spec.js';

export const mcpSpec: CommandSpec = (program, run) =>
  program
    .command('mcp')
    .description('serve sessions as tools to a local agent: the Model Context Protocol on stdio')
    .option('--read-only', 'only the tools that send nothing to a session (wait, show, list)')
    .addHelpText(
      'after',
      `
Tools: create_session, send_message, wait_for_reply, show_session, list_sessions.
stdout carries the protocol alone; logs go to stderr. Ends when stdin closes.
Examples:
  $ claude mcp add blocks -- agents mcp
  $ agents mcp --read-only --profile work`,
    )
    .action((flags: { readOnly?: boolean }, cmd: Command) => {
      // The SDK (with zod and ajv) loads while the run's context is made: a client waits on the answer.
      const body = import('./run.js');
      const load = () => body;
      return run(cmd, load, (m, ctx) => m.mcp(ctx, flags));
    });
