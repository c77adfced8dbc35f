// agents tail: the last messages already there, then new ones as they land, until interrupted (or, with
// --until-final, until the latest turn's final message).
import type { Context } from '../context.js';
import type { Message, MessageType } from '../api/types.js';
import { clientFor, settingsFor } from '../session/connect.js';
import { resolveSessionRef } from '../session/resolve-ref.js';
import { deadlineSignal, outagePolicy, waitError } from '../session/await-reply.js';
import { Follower } from '../poll/follow.js';
import { SeenWindow } from '../poll/window.js';
import { line, renderMessage } from '../output/render.js';
import { createStyle } from '../output/style.js';

export interface TailFlags {
  lines: number;
  thread?: string;
  tools?: boolean;
  untilFinal?: boolean;
  timeout?: number;
}

function newestFirst(items: Message[]): Message | undefined {
  return items[0];
}

export async function runTail(ctx: Context, ref: string, flags: TailFlags): Promise<void> {
  const settings = settingsFor(ctx);
  const resolved = resolveSessionRef(ref, settings.profile, ctx.env);
  const client = clientFor(ctx, settings);
  const target = { sessionId: resolved.id, threadId: flags.thread };
  const types: MessageType[] = flags.tools
    ? ['message', 'final_message', 'tool_call']
    : ['message', 'final_message'];
  const json = ctx.globals.json === true;
  const style = await createStyle(ctx.caps.color && ctx.caps.stdoutIsTTY);
  const mode = { tty: ctx.caps.stdoutIsTTY, style };
  const print = (m: Message) => {
    if (json) ctx.out(`${JSON.stringify(m)}\n`);
    else ctx.out(mode.tty ? renderMessage(m, mode) : line(m.message));
  };

  const d = deadlineSignal(ctx.signal, flags.timeout);
  try {
    // The backlog: newest first from the service, printed oldest first. At least one is read even with
    // -n 0, to know where "new" starts.
    const backlog: Message[] = [];
    for await (const m of client.iterateMessages(
      target,
      { type: types, role: 'assistant', direction: 'desc' },
      {
        signal: d.signal,
      },
    )) {
      backlog.push(m);
      if (backlog.length >= Math.max(1, flags.lines)) break;
    }
    for (const m of backlog.slice(0, flags.lines).reverse()) print(m);

    const newest = newestFirst(backlog);
    if (flags.untilFinal && newest?.type === 'final_message') {
      // Done already if no user message came after that final one.
      const lastUser = await client.listMessages(
        target,
        { role: 'user', type: ['message'], direction: 'desc', limit: 1 },
        { signal: d.signal },
      );
      const asked = lastUser.items[0];
      if (!asked || Date.parse(asked.created_at) <= Date.parse(newest.created_at)) return;
    }

    const window = new SeenWindow();
    const newestTs = backlog.reduce<number | undefined>(
      (max, m) => (typeof m.ts === 'number' && (max === undefined || m.ts > max) ? m.ts : max),
      undefined,
    );
    if (newestTs !== undefined) window.floor = Math.floor(newestTs - window.marginS);
    const follower = new Follower({
      client,
      target,
      types,
      untilFinal: flags.untilFinal,
      signal: d.signal,
      window,
      seenUpTo: newest?.created_at,
      immediate: newest !== undefined,
      ...outagePolicy(ctx, flags.timeout),
    });
    for await (const m of follower) print(m);
  } catch (err) {
    throw waitError(err, d.why, resolved.id, flags.thread);
  } finally {
    d.dispose();
  }
}
