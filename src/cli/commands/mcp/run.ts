// agents mcp: serves the tools until stdin closes; prints nothing itself (stdout is the protocol's). This
// module brings the MCP SDK with it (src/mcp/server.ts): only the mcp command imports it.
import type { Context } from '../../run/context.js';
import { serve } from '../../../mcp/server.js';
import { hostOf } from '../../run/host.js';

export async function mcp(ctx: Context, flags: { readOnly?: boolean }): Promise<void> {
  await serve(hostOf(ctx), { readOnly: flags.readOnly === true });
}
