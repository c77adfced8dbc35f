import type { Context } from '../../run/context.js';
import {
  githubFiles,
  type OutputSchema,
  postTurn,
  type Profile,
  readKnownSessions,
  resolveSession,
  type SendMessageBody,
  type SessionRef,
  startDeadline,
  turnInProgress,
  UsageError,
  withSchemaInstruction,
} from '../../../core/index.js';
import { commandMessage } from '../../input/command-message.js';
import type { ReplyFlags } from '../../input/reply-flags.js';
import { sessionOrPick } from '../../input/pick-session.js';
import type { Item } from '../../output/items.js';
import type { SendItem } from './items.js';
import { afterPost } from '../options/after-post.js';

export { print } from './items.js';

export type SendFlags = ReplyFlags & { profile?: Profile; yes?: boolean; schema?: OutputSchema };

export async function* send(
  ctx: Context,
  given: SessionRef | undefined,
  words: string[],
  flags: SendFlags,
): AsyncGenerator<Item | SendItem> {
  const ref = await sessionOrPick(ctx, given);
  const history = await ctx.history();
  const session = await resolveSession(ref, history);
  const client = await ctx.client();
  const message = await commandMessage(ctx, words, flags.file);
  // At a terminal, "last" is named before anything is posted to it.
  if (ref.kind === 'last' && ctx.caps.stderrIsTTY)
    yield { kind: 'note', text: `Sending to session ${session.id} (last)` };

  // A person at a terminal is told before their message cuts a running turn short; scripts never are.
  if (ctx.prompts && !flags.yes && (await turnInProgress(client, session.id, { signal: ctx.signal }))) {
    const go = await ctx.prompts.confirm('The agent is still working on the previous message. Interrupt it?');
    if (!go) throw new UsageError('not sent', 'pass --yes to interrupt without asking');
  }

  // --github-output where the runner names no GITHUB_OUTPUT: a usage error before anything is sent.
  if (flags.wait) githubFiles(ctx.io.env, flags);
  const body: SendMessageBody = {
    message: flags.schema ? withSchemaInstruction(message, flags.schema) : message,
  };
  if (flags.artifact?.length) body.artifact_ids = flags.artifact;
  if (flags.profile !== undefined) body.profile = flags.profile;
  const waiting = flags.wait === true || flags.follow === true;
  const deadline = startDeadline(ctx.signal, flags.timeout);
  try {
    const posted = await postTurn(client, { kind: 'send', sessionId: session.id, body }, deadline, history);
    const { sent, threadId } = posted;
    if (posted.warning) yield { kind: 'warning', text: posted.warning };
    yield { kind: 'message-sent', sessionId: session.id, sent, waiting };
    // What this machine knows of the session (its title, the agent it was created with), for --notify.
    const known = waiting ? (await readKnownSessions(history)).find((s) => s.id === session.id) : undefined;
    const who = known?.agent ?? 'the agent';
    const about = { who, label: 'the reply', title: known?.title, url: known?.web };
    const what = `the follow-up on session ${session.id}`;
    yield* afterPost(ctx, { client, sessionId: session.id, threadId, flags, deadline, what, ...about });
  } finally {
    deadline.dispose();
  }
}
