// The run as the host of `agents mcp` and `agents acp` (core/sessions/host.ts), through the library's public
// entry so that a regression of the library fails their tests too; its events come out on the run's stderr.
import { Agents } from '../../sdk/index.js';
import { connectionOf, type Context, pacingDir } from './context.js';
import { recordIn, sharedPacingFromEnv, type Host } from '../../core/index.js';

/** The run's Agents: its key, base URL and budget as the run's own client has them. */
async function agentsOf(ctx: Context): Promise<Agents> {
  const { budgetUrl, ...connection } = await connectionOf(ctx);
  const { io, log } = ctx;
  const shared = io.tuning?.pacing !== false && sharedPacingFromEnv(io.env);
  const agents = new Agents({
    ...connection,
    env: io.env,
    budget: { dir: pacingDir(io), shared, ...(budgetUrl !== undefined && { url: budgetUrl }) },
    // The library's progress on the run's log, as the CLI's own client tells it.
    onEvent: (e) => {
      if (e.type === 'budget' || e.type === 'warning') log.warn(e.message);
      else if (e.type === 'poll-failed') log.warn(`${e.reason}; still trying`);
      else if (e.type === 'retry') log.debug(`${e.reason}; retrying in ${e.delayMs} ms`);
    },
    ...(io.tuning && { tuning: io.tuning }),
  });
  // The turns' ends it sees go where the run's own client records them (`agents ls`).
  recordIn(agents, await ctx.history());
  return agents;
}

export function hostOf(ctx: Context): Host<Agents> {
  let agents: Promise<Agents> | undefined;
  return {
    agents: () => (agents ??= agentsOf(ctx)),
    history: () => ctx.history(),
    profile: () => ctx.profile(),
    apiKey: async () => (await ctx.settings(['apiKey'])).apiKey,
    defaultAgent: async () => (await ctx.settings(['agent'])).agent,
    log: ctx.log,
    signal: ctx.signal,
    stdin: ctx.io.stdin,
    stdout: ctx.io.stdout,
    homedir: ctx.io.runtime.homedir,
  };
}
