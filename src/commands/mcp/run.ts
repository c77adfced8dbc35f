// agents mcp: serves the tools until stdin closes; prints nothing itself (stdout is the protocol's).
import type { Context } from '../../context.js';

/** The options of mcp, as its spec parsed them. */
export interface McpFlags {
  readOnly?: boolean;
}

export async function mcp(ctx: Context, flags: McpFlags): Promise<void> {
  // The SDK is read only by this command: src/mcp/server.ts imports it when it starts serving.
  const { serve } = await import('../../mcp/server.js');
  await serve(ctx, { readOnly: flags.readOnly === true });
}
