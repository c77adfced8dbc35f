import { Option, type Command } from 'commander';
import { CORE_AGENTS } from '../../../core/index.js';
import { durationOption, uuidOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import type { AcpFlags } from './run.js';

export const acpSpec: CommandSpec = (program, run) =>
  program
    .command('acp')
    .description("serve sessions to an editor's agent panel: the Agent Client Protocol on stdio")
    .addOption(
      new Option(
        '-a, --agent <name>',
        'agent of new sessions (the panel can pick another; env AGENTS_AGENT, config "agent", else claude)',
      )
        .choices(CORE_AGENTS)
        .conflicts('agentId'),
    )
    .option('--agent-id <uuid>', 'every new session goes to this agent of the workspace', uuidOption)
    .option('--send-cwd', "name the editor's working directory in a new session's first message")
    .option(
      '--timeout <duration>',
      'how long a prompt waits for the final reply: 90s, 20m, 1h (default: until the editor cancels)',
      durationOption,
    )
    .addHelpText(
      'after',
      `
The first prompt creates a session, later ones follow up (interrupting a running turn). Cancel stops
following; the agent on Blocks goes on until the next prompt. stdout carries the protocol alone; logs
go to stderr. Ends when stdin closes. Set-up for Zed, JetBrains and Neovim: docs/editors.md.
Examples:
  $ agents acp
  $ agents acp --agent codex --profile work`,
    )
    .action((flags: AcpFlags, cmd: Command) => {
      // The SDK (with zod) loads while the run's context is made: the editor waits on initialize.
      const body = import('./run.js');
      const load = () => body;
      return run(cmd, load, (m, ctx) => m.acp(ctx, flags));
    });
