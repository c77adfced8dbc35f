// agents create: a new session with its first message; optionally wait for or follow the reply.
import type { Context } from '../context.js';
import type { CreateSessionBody } from '../api/types.js';
import { readMessage } from '../input/message.js';
import { selectAgent, type CheckedAgentFlags } from '../input/agent.js';
import type { ReplyFlags } from '../input/reply-flags.js';
import { recordLast } from '../state/last-session.js';
import type { Item } from '../output/items.js';
import { startDeadline } from '../wait/deadline.js';
import { afterPost, postError } from '../wait/reply.js';

/** The options of create, as the parse step (src/cli/checks.ts) checked them. */
export interface CreateFlags extends CheckedAgentFlags, ReplyFlags {
  private?: boolean;
}

export async function* create(ctx: Context, words: string[], flags: CreateFlags): AsyncGenerator<Item> {
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
    const warning = await recordLast(
      ctx.state,
      profile,
      { id: session.id, threadId },
      {
        title: session.title || undefined,
        agent: agent.agent_name,
        createdAt: session.created_at,
        web: session.session_html_url,
        state: 'working',
      },
    );
    if (warning) yield { kind: 'warning', text: warning };
    yield { kind: 'session-created', session, waiting };
    const who = agent.agent_name ?? 'the agent';
    yield* afterPost(ctx, {
      client,
      profile,
      sessionId: session.id,
      threadId,
      flags,
      deadline,
      who,
      title: session.title,
      label: who,
      url: session.session_html_url,
      what: `session ${session.id}`,
    });
  } finally {
    deadline.dispose();
  }
}
