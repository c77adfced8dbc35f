// agents board: at a terminal, the live board (board.ts; like emulator, mcp and acp, the command's run is a
// chunk of its own, scripts/request-runtime.mjs, so no other command reads it);
// anywhere else (a pipe, --json, CI, a terminal that cannot move its cursor), what `agents ls` prints.
import type { Context } from '../../run/context.js';
import type { Item } from '../../output/items.js';
import { ls } from '../ls/run.js';
import { Board } from './board.js';

export interface BoardFlags {
  limit: number;
  notify?: boolean;
}

/** Whether a person is at a terminal the board can take: keys in, a screen that moves its cursor out. */
function atTerminal(ctx: Context): boolean {
  // interactive: stdin and stdout terminals, and not CI.
  return ctx.caps.interactive && ctx.globals.json !== true && ctx.io.env.TERM !== 'dumb';
}

export async function board(ctx: Context, flags: BoardFlags): Promise<Item[] | undefined> {
  if (!atTerminal(ctx)) return ls(ctx, { limit: flags.limit });
  const [client, history] = await Promise.all([ctx.client(), ctx.history()]);
  await new Board(ctx, flags, client, history).run();
  return undefined;
}
