import type { Context } from '../../run/context.js';
import {
  CliError,
  ConversationFollow,
  ExitCode,
  isStop,
  type Message,
  type MessageType,
  notifyEnd,
  outagePolicy,
  readBacklog,
  resolveSession,
  type SessionItem,
  type SessionRef,
  startDeadline,
  waitError,
} from '../../../core/index.js';
import { sessionOrPick } from '../../input/pick-session.js';
import type { Item } from '../../output/items.js';

export interface TailFlags {
  /** How many of the agent's messages the backlog shows; undefined: all since `since`. */
  lines?: number;
  since?: number;
  thread?: string;
  tools?: boolean;
  untilFinal?: boolean;
  timeout?: number;
  notify?: boolean;
}

export async function* tail(
  ctx: Context,
  given: SessionRef | undefined,
  flags: TailFlags,
): AsyncGenerator<Item> {
  if (!flags.untilFinal) {
    yield* tailing(ctx, given, flags);
    return;
  }
  // --until-final ends with the turn: notified, the final message as the turn's result.
  let final: Message | undefined;
  const watched = async function* (): AsyncGenerator<SessionItem> {
    for await (const item of tailing(ctx, given, flags)) {
      if (item.kind === 'entry' && item.entry.kind === 'final') final = item.entry.message;
      yield item as SessionItem;
    }
  };
  for await (const item of notifyEnd(flags.notify, { who: 'the agent', signal: ctx.signal }, watched())) {
    yield item.kind === 'wait-ended'
      ? { ...item, title: final?.message.split('\n')[0], result: final }
      : item;
  }
}

async function* tailing(ctx: Context, given: SessionRef | undefined, flags: TailFlags): AsyncGenerator<Item> {
  const ref = await sessionOrPick(ctx, given);
  const { id } = await resolveSession(ref, await ctx.history());
  const client = await ctx.client();
  const target = { sessionId: id, threadId: flags.thread };
  const types: MessageType[] = ['message', 'final_message', ...(flags.tools ? ['tool_call' as const] : [])];
  const deadline = startDeadline(ctx.signal, flags.timeout);
  const json = ctx.globals.json === true;
  try {
    // The backlog, as show reads it; the user's prompts only where a person reads them, marked as theirs.
    const query = { types, lines: flags.lines, sinceMs: flags.since, prompts: ctx.caps.stdoutIsTTY && !json };
    const backlog = await readBacklog(client, target, query, { signal: deadline.signal });
    for (const entry of backlog.entries) yield { kind: 'entry', entry };

    // Done already when the latest turn has its final reply, wherever the backlog listed it.
    if (flags.untilFinal && backlog.latest?.state === 'finished') return;

    const follow = new ConversationFollow({
      client,
      target,
      types,
      untilFinal: flags.untilFinal,
      signal: deadline.signal,
      schedule: ctx.schedule,
      shown: backlog.read,
      policy: json ? 'hold' : 'show',
      ...outagePolicy((line) => ctx.log.warn(line), flags.timeout),
    });
    for await (const entries of follow.polls()) {
      for (const e of entries) yield { kind: 'entry', entry: e, repeats: e.repeats };
    }
  } catch (err) {
    // Ctrl-C is how a plain tail is meant to end: quietly, with the contract's 130.
    const plain = !flags.untilFinal && flags.timeout === undefined;
    if (plain && isStop(ctx.signal.reason) && ctx.signal.reason !== 'EPIPE')
      throw new CliError('interrupted', { exitCode: ExitCode.INTERRUPTED, silent: true });
    throw waitError(err, deadline, ctx.signal, id, flags.thread);
  } finally {
    deadline.dispose();
  }
}
