// agents board (like emulator, mcp and acp, a chunk of its own: scripts/request-runtime.mjs); anywhere
// but at a terminal that can take it, what `agents ls` prints.
import type { Context } from '../../run/context.js';
import type { Item } from '../../output/items.js';
import { ls } from '../ls/run.js';
import { Board, type BoardOptions } from './board.js';

export async function board(ctx: Context, flags: BoardOptions): Promise<Item[] | undefined> {
  if (!ctx.caps.interactive || ctx.globals.json === true || ctx.io.env.TERM === 'dumb')
    return ls(ctx, { limit: flags.limit });
  const [client, history] = await Promise.all([ctx.client(), ctx.history()]);
  await new Board(ctx, flags, client, history).run();
  return undefined;
}
