// agents acp: serves the Agent Client Protocol until stdin closes; prints nothing itself (stdout is the
// protocol's). This module brings the ACP SDK with it (src/acp/server.ts): only the acp command imports it.
import type { Context } from '../../run/context.js';
import { serve, type AcpOptions } from '../../../acp/server.js';
import { hostOf } from '../../run/host.js';

export type AcpFlags = Omit<AcpOptions, 'timeoutMs'> & { timeout?: number };

export async function acp(ctx: Context, { timeout, ...flags }: AcpFlags): Promise<void> {
  await serve(hostOf(ctx), { ...flags, sendCwd: flags.sendCwd === true, timeoutMs: timeout });
}
