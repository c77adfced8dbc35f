// agents mcp: the tools on stdio until stdin closes; only this command loads the MCP SDK (src/mcp/).
import type { Context } from '../../run/context.js';
import { serve } from '../../../mcp/server.js';
import { hostOf } from '../../run/host.js';

export async function mcp(ctx: Context, flags: { readOnly?: boolean }): Promise<void> {
  await serve(hostOf(ctx), { readOnly: flags.readOnly === true });
}
