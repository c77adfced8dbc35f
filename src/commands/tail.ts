// agents tail: the last messages already there, then new ones as they land, until interrupted (or, with
// --until-final, until the latest turn's final message).
import type { Context } from '../context.js';
import type { Message, MessageType } from '../api/types.js';
import { CliError, ExitCode, isStop } from '../errors.js';
import type { SessionRef } from '../input/session-ref.js';
import { resolveSession } from '../input/resolve-session.js';
import { Follower } from '../poll/follow.js';
import type { Item } from '../output/items.js';
import { startDeadline } from '../wait/deadline.js';
import { outagePolicy, waitError } from '../wait/reply.js';

export interface TailFlags {
  lines: number;
  thread?: string;
  tools?: boolean;
  untilFinal?: boolean;
  timeout?: number;
}

export async function* tail(ctx: Context, ref: SessionRef, flags: TailFlags): AsyncGenerator<Item> {
  const { profile } = await ctx.settings([]);
  const { id } = await resolveSession(ref, ctx.state, profile);
  const client = await ctx.client();
  const target = { sessionId: id, threadId: flags.thread };
  const types: MessageType[] = flags.tools
    ? ['message', 'final_message', 'tool_call']
    : ['message', 'final_message'];
  const deadline = startDeadline(ctx.signal, flags.timeout);
  try {
    // The backlog, newest first from the service, shown oldest first. At least one is read even with
    // -n 0, to know where "new" starts.
    const backlog: Message[] = [];
    for await (const m of client.iterateMessages(
      target,
      { type: types, role: 'assistant', direction: 'desc' },
      { signal: deadline.signal },
    )) {
      backlog.push(m);
      if (backlog.length >= Math.max(1, flags.lines)) break;
    }
    for (const m of backlog.slice(0, flags.lines).reverse()) yield { kind: 'message', message: m };

    const newest = backlog[0];
    if (flags.untilFinal && newest?.type === 'final_message') {
      // Done already if no user message came after that final one.
      const lastUser = await client.listMessages(
        target,
        { role: 'user', type: ['message'], direction: 'desc', limit: 1 },
        { signal: deadline.signal },
      );
      const asked = lastUser.items[0];
      if (!asked || Date.parse(asked.created_at) <= Date.parse(newest.created_at)) return;
    }

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
    for await (const m of follower) yield { kind: 'message', message: m };
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
