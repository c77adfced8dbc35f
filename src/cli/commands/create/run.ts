// agents create. With --attempts N: N sessions in one new session group, posted one after another through
// the key's shared budget; a create that fails is reported and leaves the others (none is sent again).
import { randomUUID } from 'node:crypto';
import type { Context } from '../../run/context.js';
import {
  type ApiClient,
  CliError,
  type CreateSessionBody,
  ExitCode,
  type ExitCodeValue,
  githubFiles,
  type OutputSchema,
  postTurn,
  type Session,
  startDeadline,
  toCliError,
  withSchemaInstruction,
} from '../../../core/index.js';
import { commandMessage } from '../../input/command-message.js';
import { selectAgent, type CheckedAgentFlags } from '../../input/agent.js';
import type { ReplyFlags } from '../../input/reply-flags.js';
import type { Item } from '../../output/items.js';
import type { CreateItem } from './items.js';
import { addMember, waitFanOut } from '../wait/run.js';
import { afterPost } from '../options/after-post.js';

export { print } from './items.js';

export interface CreateFlags extends CheckedAgentFlags, ReplyFlags {
  private?: boolean;
  title?: string;
  sessionGroup?: string;
  schema?: OutputSchema;
  attempts?: number;
}

export async function* create(
  ctx: Context,
  words: string[],
  flags: CreateFlags,
): AsyncGenerator<Item | CreateItem> {
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
    const about = { who, label: who, title: session.title, url: session.session_html_url };
    const what = `session ${session.id}`;
    yield* afterPost(ctx, { client, sessionId: session.id, threadId, flags, deadline, what, ...about });
  } finally {
    deadline.dispose();
  }
}

async function* createAttempts(
  ctx: Context,
  client: ApiClient,
  body: CreateSessionBody,
  flags: CreateFlags,
): AsyncGenerator<Item | CreateItem> {
  const n = flags.attempts!;
  const group = randomUUID();
  const books = await ctx.history();
  const deadline = startDeadline(ctx.signal, flags.timeout);
  const created: { attempt: number; session: Session }[] = [];
  // The worst exit code: the highest (a time-out, 124, is worse than a failure, 1).
  let worst = 0;
  try {
    for (let k = 1; k <= n; k += 1) {
      const turn = { kind: 'create', body: { ...body, session_group_id: group }, attempt: k } as const;
      try {
        const posted = await postTurn(client, turn, deadline, books);
        if (posted.warning) yield { kind: 'warning', text: posted.warning };
        created.push({ attempt: k, session: posted.session });
      } catch (err) {
        // Stopped (Ctrl-C, --timeout): the attempts not yet sent are not sent; what was made is said.
        if (deadline.signal.aborted) {
          yield { kind: 'attempts-created', group, attempts: created, of: n, waiting: false };
          throw err;
        }
        const e = toCliError(err);
        worst = Math.max(worst, e.exitCode);
        yield { kind: 'error', text: `attempt ${k} of ${n}: ${e.message}`, hint: e.hint };
      }
    }
    const waiting = flags.wait === true && created.length > 0;
    yield { kind: 'attempts-created', group, attempts: created, of: n, waiting };
    if (waiting) {
      const fan = waitFanOut(ctx, client, deadline.signal, { timeout: flags.timeout, notify: flags.notify });
      for (const { session } of created)
        addMember(fan, session.id, `attempt ${session.id}`, session.thread_id);
      fan.endFeeding();
      yield* fan.items();
      worst = Math.max(worst, fan.worstError ?? 0);
    }
  } finally {
    deadline.dispose();
  }
  if (deadline.expired || ctx.signal.aborted) {
    throw new CliError(ctx.signal.aborted ? 'interrupted' : `timed out${deadline.after}`, {
      exitCode: ctx.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.TIMEOUT,
      hint: `the attempts go on; resume with: agents wait ${group}`,
    });
  }
  if (worst !== 0) {
    // Each failure was reported as it happened: the worst one's code, and nothing more.
    throw new CliError(`${n - created.length} of ${n} attempts failed`, {
      exitCode: worst as ExitCodeValue,
      silent: true,
    });
  }
}
