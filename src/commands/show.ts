// agents show: a session and its conversation, oldest first, grouped by thread. Messages are streamed
// page by page and printed as they arrive, so a session of thousands of messages is never held whole.
import type { Context } from '../context.js';
import type { Message, MessageType, Role } from '../api/types.js';
import type { ApiClient } from '../api/client.js';
import { clientFor, settingsFor } from '../session/connect.js';
import { resolveSessionRef } from '../session/resolve-ref.js';
import { renderMessage, renderSession, renderThreadHeading } from '../output/render.js';
import { createStyle } from '../output/style.js';
import { mergeByCreated } from '../output/merge.js';

export interface ShowFlags {
  thread?: string;
  tools?: boolean;
  limit?: number;
  all?: boolean;
}

/** Default number of messages shown without --limit or --all. */
export const DEFAULT_SHOW_LIMIT = 50;

function typesFor(role: Role, tools: boolean): MessageType[] {
  if (role === 'user') return ['message', 'final_message'];
  return tools ? ['message', 'final_message', 'tool_call'] : ['message', 'final_message'];
}

/** The conversation in storage order: every message with --all, else only the newest `limit`. */
async function* conversation(
  client: ApiClient,
  ctx: Context,
  target: { sessionId: string; threadId?: string },
  flags: ShowFlags,
  onTruncated: () => void,
): AsyncGenerator<Message> {
  const signal = ctx.signal;
  const stream = (role: Role, direction: 'asc' | 'desc') =>
    client.iterateMessages(
      target,
      { role, type: typesFor(role, flags.tools === true), direction },
      { signal },
    );
  if (flags.all) {
    yield* mergeByCreated([stream('user', 'asc'), stream('assistant', 'asc')], 'asc');
    return;
  }
  const limit = flags.limit ?? DEFAULT_SHOW_LIMIT;
  const newest: Message[] = [];
  for await (const m of mergeByCreated([stream('user', 'desc'), stream('assistant', 'desc')], 'desc')) {
    if (newest.length === limit) {
      onTruncated();
      break;
    }
    newest.push(m);
  }
  yield* newest.reverse();
}

export async function runShow(ctx: Context, ref: string, flags: ShowFlags): Promise<void> {
  const settings = settingsFor(ctx);
  const resolved = resolveSessionRef(ref, settings.profile, ctx.env);
  const client = clientFor(ctx, settings);
  const session = await client.getSession(resolved.id, { signal: ctx.signal });
  const target = { sessionId: session.id, threadId: flags.thread };
  let truncated = false;
  const messages = conversation(client, ctx, target, flags, () => (truncated = true));

  if (ctx.globals.json) {
    ctx.out(`{"session":${JSON.stringify(session)},"messages":[`);
    let first = true;
    for await (const m of messages) {
      ctx.out(`${first ? '' : ','}\n${JSON.stringify(m)}`);
      first = false;
    }
    ctx.out(`${first ? '' : '\n'}]}\n`);
  } else {
    const style = await createStyle(ctx.caps.color && ctx.caps.stdoutIsTTY);
    const mode = { tty: ctx.caps.stdoutIsTTY, style };
    ctx.out(`${renderSession(session, style)}\n`);
    let thread: string | null | undefined;
    let turn = 0;
    for await (const m of messages) {
      if (m.chat_thread_id !== thread || turn === 0) {
        thread = m.chat_thread_id;
        turn += 1;
        ctx.out(`${renderThreadHeading(thread, turn, style)}\n`);
      }
      ctx.out(renderMessage(m, mode));
    }
    if (turn === 0) ctx.out(`\n${style.dim('(no messages)')}\n`);
  }
  if (truncated) {
    ctx.log.hint(`Showing the newest ${flags.limit ?? DEFAULT_SHOW_LIMIT} messages; --all shows every one.`);
  }
}
