// agents create: a new session with its first message; optionally wait for or follow the reply.
import type { Context } from '../context.js';
import type { CreateSessionBody } from '../api/types.js';
import { CliError } from '../errors.js';
import { readMessage } from '../input/message.js';
import { selectAgent, type AgentFlags } from '../input/agent.js';
import { checkReplyFlags, type ReplyFlags } from '../input/reply-flags.js';
import { recordLast } from '../state/last-session.js';
import type { Item } from '../output/items.js';
import { startDeadline } from '../wait/deadline.js';
import { awaitReply, postError } from '../wait/reply.js';

export interface CreateFlags extends AgentFlags, ReplyFlags {
  private?: boolean;
}

export async function* create(ctx: Context, words: string[], flags: CreateFlags): AsyncGenerator<Item> {
  await checkReplyFlags(flags);
  const client = await ctx.client();
  const agent = await selectAgent(
    flags,
    async () => (await ctx.settings(['agent'])).agent,
    ctx.prompts && (() => ctx.prompts!.agent()),
  );
  const message = await readMessage({
    args: words,
    file: flags.file,
    stdin: ctx.io.stdin,
    interactive: ctx.prompts !== undefined,
    prompt: () => ctx.prompts!.message(),
  });

  const body: CreateSessionBody = { message, ...agent };
  if (flags.private) body.is_private = true;
  if (flags.artifact?.length) body.artifact_ids = flags.artifact;
  const waiting = flags.wait === true || flags.follow === true;
  // --timeout bounds the whole command from here on, the POST included.
  const deadline = startDeadline(ctx.signal, flags.timeout);
  try {
    const session = await client
      .createSession(body, { signal: deadline.signal })
      .catch((err: unknown) => postError(err, deadline));
    const threadId = session.thread_id ?? undefined;
    const { profile } = await ctx.settings([]);
    const warning = await recordLast(ctx.state, profile, {
      id: session.id,
      threadId,
      agent: agent.agent_name ?? (agent.agent_id !== undefined ? 'custom agent' : 'agent profile'),
    });
    if (warning) yield { kind: 'warning', text: warning };
    yield { kind: 'session-created', session, waiting };
    if (!waiting) {
      yield { kind: 'next-steps', sessionId: session.id, finished: false };
      return;
    }
    if (threadId === undefined) {
      throw new CliError(`the service returned no thread for session ${session.id}`, {
        hint: `follow it with: agents tail ${session.id}`,
      });
    }
    yield* awaitReply(ctx, {
      client,
      sessionId: session.id,
      threadId,
      mode: flags.wait ? 'wait' : 'follow',
      deadline,
      outputFile: flags.output,
      label: agent.agent_name ?? 'the agent',
    });
    yield { kind: 'next-steps', sessionId: session.id, finished: true };
  } finally {
    deadline.dispose();
  }
}
