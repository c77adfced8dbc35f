import { checkReplyFlags } from '../../input/reply-flags.js';
import { profileFromFlags, type AgentFlags } from '../../input/agent.js';
import { checkMessageSources, type SessionRef } from '../../../core/index.js';
import type { Command } from 'commander';

import { uuidOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import { addReplyOptions, loadSchemaOption } from '../options/reply-options.js';
import { sessionOrPickArg } from '../options/session-args.js';
import type { SendFlags } from './run.js';

type SendOptions = Omit<SendFlags, 'profile' | 'schema'> &
  Pick<AgentFlags, 'agentProfile' | 'agentProfileFile'>;

export const sendSpec: CommandSpec = (program, run) =>
  addReplyOptions(
    program
      .command('send')
      .description('post a follow-up: starts a new thread and interrupts the turn in progress')
      .addArgument(sessionOrPickArg())
      .argument('[message...]', 'the message ("-" reads standard input)')
      .option('--agent-profile <uuid>', 'an existing agent profile for this turn', uuidOption)
      .option('--agent-profile-file <file>', 'a JSON Profile object for this turn')
      .option('-y, --yes', 'interrupt a running turn without asking'),
  )
    .addHelpText(
      'after',
      `
Without --wait or --follow, <session-id>/<thread-id> is printed on stdout: what \`agents wait\` and
--thread read.
Examples:
  $ agents send last "Now add tests"
  $ ref=$(agents send "$SESSION" "Use the existing logger") && agents wait "$ref"
  $ agents send "$SESSION" --wait --timeout 20m "Fix the failing test"`,
    )
    .action(async (ref: SessionRef | undefined, words: string[], opts: SendOptions, cmd: Command) => {
      const flags = await check(words, opts);
      return run(cmd, load, (m, ctx) => m.send(ctx, ref, words, flags));
    });

async function check(words: string[], opts: SendOptions): Promise<SendFlags> {
  checkReplyFlags(opts);
  const schema = opts.outputSchema === undefined ? undefined : await loadSchemaOption(opts.outputSchema);
  const { agentProfile: _id, agentProfileFile: _file, ...rest } = opts;
  const profile = profileFromFlags(opts);
  checkMessageSources(words, opts.file);
  return { ...rest, profile, schema };
}

const load = () => import('./run.js');
