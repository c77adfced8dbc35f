// agents acp: the Agent Client Protocol on stdio until stdin closes; only this command loads its SDK.
import type { Context } from '../../run/context.js';
import { serve, type AcpOptions } from '../../../acp/server.js';
import { hostOf } from '../../run/host.js';

export type AcpFlags = Omit<AcpOptions, 'timeoutMs'> & { timeout?: number };

export async function acp(ctx: Context, { timeout, ...flags }: AcpFlags): Promise<void> {
  await serve(hostOf(ctx), { ...flags, sendCwd: flags.sendCwd === true, timeoutMs: timeout });
}
