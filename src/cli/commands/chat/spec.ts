import { checkAgentFlags, type AgentFlags, type CheckedAgentFlags } from '../../input/agent.js';
import type { Command } from 'commander';
import { type SessionRef, sessionRefArg } from '../../../core/index.js';
import { intOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import { addAgentOptions, addNotifyOptions } from '../options/reply-options.js';
import { SESSION_ARG } from '../options/session-args.js';
import type { ChatFlags } from './run.js';

type ChatOptions = Omit<ChatFlags, keyof CheckedAgentFlags> & AgentFlags;

export const chatSpec: CommandSpec = (program, run) =>
  addNotifyOptions(
    addAgentOptions(
      program
        .command('chat')
        .description('a conversation with an agent at the terminal: type, watch it work, reply')
        .argument('[session]', `continue this session (${SESSION_ARG})`, sessionRefArg),
      'agent of a new session (env AGENTS_AGENT, config "agent")',
    )
      .option('--private', 'hide new sessions from other workspace members')
      .option('-y, --yes', 'send a follow-up that interrupts a running turn without asking'),
    'ring the bell when a turn ends',
  )
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
      // One way of naming the agent at most, a profile file read and checked.
      const { agentProfile: _id, agentProfileFile: _file, ...rest } = opts;
      const flags: ChatFlags = { ...rest, ...checkAgentFlags(opts) };
      return run(cmd, load, (m, ctx) => m.chat(ctx, ref, flags));
    });

const load = () => import('./run.js');
