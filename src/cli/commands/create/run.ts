// agents create: a new session with its first message; optionally wait for or follow the reply.
import type { Context } from '../../run/context.js';
import type { CreateSessionBody } from '../../../core/api/types.js';
import { commandMessage } from '../../input/command-message.js';
import { selectAgent, type CheckedAgentFlags } from '../../input/agent.js';
import type { ReplyFlags } from '../../input/reply-flags.js';
import { withSchemaInstruction, type OutputSchema } from '../../../core/sessions/structured-output.js';
import type { Item } from '../../output/items.js';
import { githubFiles } from '../../../core/config/env.js';
import { startDeadline } from '../../../core/sessions/deadline.js';
import { afterPost } from '../options/after-post.js';
import { postTurn } from '../../../core/sessions/post.js';
import { createAttempts } from './attempts.js';

/** The options of create, as its spec (spec.ts) checked them. */
export interface CreateFlags extends CheckedAgentFlags, ReplyFlags {
  private?: boolean;
  title?: string;
  /** --session-group: the session group's UUID. */
  sessionGroup?: string;
  /** --output-schema, compiled by the spec. */
  schema?: OutputSchema;
  /** --attempts N (2 to 5): N sessions in one new session group. */
  attempts?: number;
}

export async function* create(ctx: Context, words: string[], flags: CreateFlags): AsyncGenerator<Item> {
  const client = await ctx.client();
  const agent = await selectAgent(
    flags,
    async () => (await ctx.settings(['agent'])).agent,
    ctx.prompts && (() => ctx.prompts!.agent()),
  );
  const message = await commandMessage(ctx, words, flags.file);

  // --github-output where the runner names no GITHUB_OUTPUT: a usage error before anything is sent.
  if (flags.wait) githubFiles(ctx.io.env, flags);
  const text = flags.schema ? withSchemaInstruction(message, flags.schema) : message;
  const body: CreateSessionBody = { message: text, ...agent };
  if (flags.private) body.is_private = true;
  // Sent only when given: the live service takes both, the document names neither.
  if (flags.title !== undefined) body.title = flags.title;
  if (flags.sessionGroup !== undefined) body.session_group_id = flags.sessionGroup;
  if (flags.artifact?.length) body.artifact_ids = flags.artifact;
  if (flags.attempts !== undefined) {
    yield* createAttempts(ctx, client, body, flags);
    return;
  }
  const waiting = flags.wait === true || flags.follow === true;
  // --timeout bounds the whole command from here on, the POST included.
  const deadline = startDeadline(ctx.signal, flags.timeout);
  try {
    const posted = await postTurn(client, { kind: 'create', body }, deadline, await ctx.history());
    const { session, threadId } = posted;
    if (posted.warning) yield { kind: 'warning', text: posted.warning };
    yield { kind: 'session-created', session, waiting };
    const who = agent.agent_name ?? 'the agent';
    yield* afterPost(ctx, {
      client,
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
