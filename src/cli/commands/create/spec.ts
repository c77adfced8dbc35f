import { checkReplyFlags } from '../../input/reply-flags.js';
import { checkAgentFlags, type AgentFlags, type CheckedAgentFlags } from '../../input/agent.js';
import { checkMessageSources, UsageError } from '../../../core/index.js';
import type { Command } from 'commander';
import { intOption, titleOption, uuidOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import { addAgentOptions, addReplyOptions, loadSchemaOption } from '../options/reply-options.js';
import type { CreateFlags } from './run.js';

type CreateOptions = Omit<CreateFlags, keyof CheckedAgentFlags | 'schema'> & AgentFlags;

export const createSpec: CommandSpec = (program, run) =>
  addReplyOptions(
    addAgentOptions(
      program
        .command('create')
        .description('create a session with a first message')
        .argument('[message...]', 'the message ("-" reads standard input)'),
      'agent (env AGENTS_AGENT, config "agent")',
    )
      .option('--private', 'hide the session from other workspace members')
      .option('--title <text>', "the session's title (at most 200 characters)", titleOption)
      .option('--session-group <uuid>', 'file the session under an existing session group', uuidOption)
      .option(
        '--attempts <n>',
        'the same prompt as N sessions (2 to 5) in one new session group; ids one per line',
        intOption(2, 5),
      ),
  )
    .addHelpText(
      'after',
      `
Without --wait or --follow the new session id is printed on stdout (what \`agents wait\` reads).
Examples:
  $ agents create -a claude "Explain this repository"
  $ printf '%s' "$prompt" | agents create --agent claude --wait > answer.md
  $ agents create -a codex --wait --timeout 20m --output reply.md --file task.md
  $ agents create -a claude --attempts 3 --file task.md | agents wait --output-dir attempts/`,
    )
    .action(async (words: string[], opts: CreateOptions, cmd: Command) => {
      const flags = await check(words, opts);
      return run(cmd, load, (m, ctx) => m.create(ctx, words, flags));
    });

async function check(words: string[], opts: CreateOptions): Promise<CreateFlags> {
  checkReplyFlags(opts);
  // --attempts: the sessions are waited on together; these would be ambiguous.
  const alone: [keyof CreateOptions, string][] = [
    ['sessionGroup', '--session-group (the attempts get a new group of their own)'],
    ['follow', '--follow (use --wait: each reply as it lands)'],
    ['outputSchema', '--output-schema'],
    ['output', '--output (agents wait --output-dir writes one file per attempt)'],
    ['githubOutput', '--github-output'],
  ];
  const clash = alone.find(([key]) => opts[key] !== undefined && opts[key] !== false);
  if (opts.attempts !== undefined && clash !== undefined)
    throw new UsageError(`--attempts cannot be combined with ${clash[1]}`);
  const schema = opts.outputSchema === undefined ? undefined : await loadSchemaOption(opts.outputSchema);
  const { agentProfile: _id, agentProfileFile: _file, ...rest } = opts;
  const agent = checkAgentFlags(opts);
  checkMessageSources(words, opts.file);
  return { ...rest, ...agent, schema };
}

const load = () => import('./run.js');
