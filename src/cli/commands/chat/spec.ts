// agents chat [session]: its options and help, and the agent checks the flags alone decide.
import { checkAgentFlags } from '../../input/agent.js';
import { Option, type Command } from 'commander';
import { CORE_AGENTS } from '../../../core/api/types.js';
import type { AgentFlags } from '../../input/agent.js';
import type { SessionRef } from '../../input/session-ref.js';
import { intOption, sessionArgument, uuidOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import { SESSION_ARG } from '../options/session-args.js';
import type { ChatFlags } from './run.js';

/** chat's options as commander parsed them. */
interface ChatOptions extends AgentFlags {
  private?: boolean;
  yes?: boolean;
  notify?: boolean;
  turns: number;
}

export const chatSpec: CommandSpec = (program, run) =>
  program
    .command('chat')
    .description('a conversation with an agent at the terminal: type, watch it work, reply')
    .argument('[session]', `continue this session (${SESSION_ARG})`, sessionArgument)
    .addOption(
      new Option('-a, --agent <name>', 'agent of a new session (env AGENTS_AGENT, config "agent")').choices(
        CORE_AGENTS,
      ),
    )
    .option('--agent-id <uuid>', 'a specific agent of the workspace', uuidOption)
    .option('--agent-profile <uuid>', 'an existing agent profile', uuidOption)
    .option('--agent-profile-file <file>', 'a JSON Profile object')
    .option('--private', 'hide new sessions from other workspace members')
    .option('-y, --yes', 'send a follow-up that interrupts a running turn without asking')
    .option('--notify', 'ring the bell when a turn ends')
    .option('--no-notify', 'no notification for this run, whatever the notify setting says')
    .option('-n, --turns <n>', 'turns of a continued session to show first', intOption(0, 1000), 3)
    .addHelpText(
      'after',
      `
Enter sends (a running turn is interrupted, after a y); \\ then Enter, or Alt-Enter, starts a new line;
a paste is one message. /help lists the commands (/new, /show, /open, /plan, /copy, /save FILE, /quit).
Ctrl-C clears the line, and on an empty line leaves (so does Ctrl-D), printing how to come back.
Only on a terminal: scripts and CI use create/send --wait (exit 2 here).
Examples:
  $ agents chat -a claude
  $ agents chat last`,
    )
    .action(async (ref: SessionRef | undefined, opts: ChatOptions, cmd: Command) => {
      const flags = check(opts);
      return run(cmd, async (ctx) => (await import('./run.js')).chat(ctx, ref, flags));
    });

/** One way of naming the agent at most, a profile file read and checked. */
function check(opts: ChatOptions): ChatFlags {
  const { agentProfile: _id, agentProfileFile: _file, ...rest } = opts;
  return { ...rest, ...checkAgentFlags(opts) };
}
