// agents acp: serves the Agent Client Protocol until stdin closes; prints nothing itself (stdout is the
// protocol's). This module brings the ACP SDK with it (src/acp/server.ts): only the acp command imports it.
import type { Context } from '../../run/context.js';
import type { CoreAgent } from '../../../core/api/types.js';
import { serve } from '../../../acp/server.js';
import { hostOf } from '../../run/host.js';

/** The options of acp, as its spec parsed them. */
export interface AcpFlags {
  agent?: CoreAgent;
  agentId?: string;
  sendCwd?: boolean;
  timeout?: number;
}

export async function acp(ctx: Context, flags: AcpFlags): Promise<void> {
  await serve(hostOf(ctx), {
    ...(flags.agent === undefined ? {} : { agent: flags.agent }),
    ...(flags.agentId === undefined ? {} : { agentId: flags.agentId }),
    sendCwd: flags.sendCwd === true,
    ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
  });
}
