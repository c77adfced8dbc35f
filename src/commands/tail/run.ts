// agents tail: the last messages already there, then new ones as they land, until interrupted (or, with
// --until-final, until the latest turn's final message).
import type { Context } from '../../context.js';
import type { MessageType } from '../../api/types.js';
import { CliError, ExitCode, isStop } from '../../cli-error.js';
import type { SessionRef } from '../../input/session-ref.js';
import { resolveSession } from '../../sessions/resolve.js';
import { sessionOrPick } from '../../input/pick-session.js';
import { Follower, isFinalReply } from '../../poll/follow.js';
import { readMessages } from '../../sessions/read.js';
import { readConversation, streamConversation } from '../../conversation/model.js';
import type { Item } from '../../output/items.js';
import { startDeadline } from '../../sessions/deadline.js';
import { outagePolicy, waitError } from '../../sessions/await-reply.js';

export interface TailFlags {
  lines: number;
  thread?: string;
  tools?: boolean;
  untilFinal?: boolean;
  timeout?: number;
}

export async function* tail(
  ctx: Context,
  given: SessionRef | undefined,
  flags: TailFlags,
): AsyncGenerator<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { profile } = await ctx.settings([]);
  const { id } = await resolveSession(ref, ctx.state, profile);
  const client = await ctx.client();
  const target = { sessionId: id, threadId: flags.thread };
  const types: MessageType[] = flags.tools
    ? ['message', 'final_message', 'tool_call']
    : ['message', 'final_message'];
  const deadline = startDeadline(ctx.signal, flags.timeout);
  try {
    // The backlog: the conversation's last messages, both roles, as show reads them. Twice as many
    // messages as asked for are read, so that the service's copies of final replies and its notices,
    // which are not shown, do not eat into -n. At least one is read even with -n 0, to know where "new"
    // starts.
    const { messages: backlog } = await readMessages(client, target, types, Math.max(1, flags.lines * 2), {
      signal: deadline.signal,
    });
    const shown = readConversation(backlog).entries;
    for (const entry of shown.slice(Math.max(0, shown.length - flags.lines))) yield { kind: 'entry', entry };

    // Done already when the newest message of a turn is a final reply: a later prompt would be newer
    // still, and in the backlog (a notice is never the end of a turn).
    const newest = backlog.findLast((m) => m.chat_thread_id !== null);
    if (flags.untilFinal && newest !== undefined && isFinalReply(newest)) return;

    const follower = new Follower({
      client,
      target,
      types,
      untilFinal: flags.untilFinal,
      signal: deadline.signal,
      schedule: ctx.schedule,
      after: backlog,
      ...outagePolicy(ctx, flags.timeout),
    });
    const policy = ctx.globals.json ? 'hold' : 'show';
    // The stream starts from the backlog, so a copy of a final reply shown there is not shown again.
    for await (const e of streamConversation(follower.batches(), policy, backlog)) {
      yield { kind: 'entry', entry: e, repeats: e.repeats };
    }
  } catch (err) {
    // Ctrl-C is how a plain tail is meant to end: quietly, with the contract's 130.
    const plain = !flags.untilFinal && flags.timeout === undefined;
    if (plain && isStop(ctx.signal.reason) && ctx.signal.reason !== 'EPIPE') {
      throw new CliError('interrupted', { exitCode: ExitCode.INTERRUPTED, silent: true });
    }
    throw waitError(err, deadline, ctx.signal, id, flags.thread);
  } finally {
    deadline.dispose();
  }
}
