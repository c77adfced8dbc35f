// What the board's keys do to a session, through the commands' own run functions (it rewrites none of them).
import type { Context } from '../../run/context.js';
import type { Item } from '../../output/items.js';
import type { ItemsOf } from '../../output/printer.js';
import { present } from '../../output/presenter.js';
import { openInBrowser } from '../../output/browser.js';
import { chat } from '../chat/run.js';
import { tail } from '../tail/run.js';
import { show, print as showPrint } from '../show/run.js';
import { checkout, print as checkoutPrint } from '../checkout/run.js';
import { diff, print as diffPrint } from '../diff/run.js';
import { open } from '../open/run.js';
import type { SendItem } from '../send/items.js';
import type { CreateItem } from '../create/items.js';
import { toCliError } from '../../../core/index.js';
import type { BoardScreen } from './screen.js';

export type ScreenAction = 'chat' | 'tail' | 'show' | 'checkout' | 'diff';

async function runOnScreen(ctx: Context, what: ScreenAction, id: string): Promise<void> {
  const ref = { kind: 'id', id } as const;
  // Its own end (Ctrl-C or Ctrl-D on an empty line) is the way back: its resume hint is not needed here.
  if (what === 'chat') return void (await chat(ctx, ref, { turns: 3 }));
  const result = await { tail, show, checkout, diff }[what](ctx, ref, {});
  const print = { ...showPrint, ...checkoutPrint, ...diffPrint };
  await present<ItemsOf<typeof print>>(ctx, result, print);
}

export type Posted = { sessionId: string; threadId?: string; warning?: string };

/** What a send or a create run from the board posted. */
export async function posted(
  items: AsyncIterable<Item | SendItem | CreateItem>,
): Promise<Posted | undefined> {
  let out: Posted | undefined;
  let warning: string | undefined;
  for await (const item of items) {
    if (item.kind === 'warning') warning = item.text;
    if (item.kind === 'message-sent')
      out = { sessionId: item.sessionId, threadId: item.sent.chat_thread_id ?? undefined };
    if (item.kind === 'session-created')
      out = { sessionId: item.session.id, threadId: item.session.thread_id ?? undefined };
  }
  return out && (warning === undefined ? out : { ...out, warning });
}

export async function browse(ctx: Context, id: string): Promise<string> {
  const item = await open(ctx, { kind: 'id', id });
  if (item.kind !== 'browse') return '';
  const { opened, why, error } = await openInBrowser(ctx.io, item.url);
  if (opened) return `opened ${item.url} in your browser`;
  return `${item.url} (no browser opened: ${error ?? why ?? 'none'})`;
}

/** Gives the screen to a command on `id`, then waits for a key where its output is to be read (q ends a tail). */
export async function away(
  ctx: Context,
  screen: BoardScreen,
  what: ScreenAction,
  id: string,
  name: string,
): Promise<void> {
  const board = screen.keys;
  screen.leave();
  const sub = new AbortController();
  const { stderr } = ctx.io;
  if (what === 'tail') {
    stderr.write(`Following ${name}; q returns to the board.\n`);
    screen.keys = (s, k) => (s === 'q' || (k?.ctrl && k.name === 'c') ? sub.abort('SIGINT') : undefined);
    screen.listen(true);
  }
  let failed = false;
  try {
    await runOnScreen({ ...ctx, signal: AbortSignal.any([ctx.signal, sub.signal]) }, what, id);
  } catch (err) {
    const e = toCliError(err);
    failed = !sub.signal.aborted && !ctx.signal.aborted;
    if (failed && !e.silent) await present(ctx, { kind: 'error', text: e.message, hint: e.hint });
  } finally {
    if (what === 'tail') screen.listen(false);
    screen.keys = board;
  }
  if (ctx.signal.aborted || !(failed || what === 'show' || what === 'checkout' || what === 'diff')) return;
  stderr.write(ctx.styleErr.dim('Press any key to return to the board.'));
  await new Promise<void>((resolve) => {
    const done = () => {
      screen.listen(false);
      screen.keys = board;
      stderr.write('\n');
      resolve();
    };
    screen.keys = done;
    screen.listen(true);
    ctx.signal.addEventListener('abort', done, { once: true });
  });
}
