// agents chat [session]: a conversation with an agent at the terminal (src/cli/chat/ holds its parts).
import { once } from 'node:events';
import type { Context } from '../../run/context.js';
import {
  type AgentSelection,
  CliError,
  ExitCode,
  requireConnection,
  resolveSession,
  type SessionRef,
  UsageError,
} from '../../../core/index.js';
import { selectAgent, type CheckedAgentFlags } from '../../input/agent.js';
import type { Item } from '../../output/items.js';
import type { ChatItem } from './items.js';
import { loadBacklog, type Backlog } from '../../chat/backlog.js';
import { Chat, type ChatEnd } from '../../chat/session.js';
import { completeSlash } from '../../chat/slash.js';
import { ChatTerminal } from '../../chat/chat-terminal.js';

export { print } from './items.js';

export interface ChatFlags extends CheckedAgentFlags {
  private?: boolean;
  yes?: boolean;
  notify?: boolean;
  turns: number;
}

/** One quick retry, not the client's minute of them: the status line says at once that polls fail. */
const POLL_RETRY = { maxRetries: 1, totalBudgetMs: 5_000 };

const SCRIPT_HINT = 'in scripts and CI use: agents create --wait "…", then agents send <session> --wait "…"';

function requireTerminal(ctx: Context): void {
  const { io, caps } = ctx;
  const why = (
    [
      [caps.ci, 'CI is set'],
      [io.stdin.isTTY !== true, 'standard input is not a terminal'],
      [io.stdout.isTTY !== true, 'standard output is not a terminal'],
      [io.env.TERM === 'dumb', 'this terminal (TERM=dumb) cannot move its cursor'],
    ] as const
  ).find(([failed]) => failed)?.[1];
  if (why !== undefined) throw new UsageError(`agents chat needs a terminal: ${why}`, SCRIPT_HINT);
  if (ctx.globals.json) throw new UsageError('agents chat has no --json output', SCRIPT_HINT);
}

/** For a continued session: the agent /new would use, from the flags or the config; never asked. */
async function knownAgent(ctx: Context, flags: ChatFlags): Promise<AgentSelection | undefined> {
  if ([flags.agent, flags.agentId, flags.profile].some((v) => v !== undefined))
    return selectAgent(flags, () => Promise.resolve(undefined), undefined);
  const configured = (await ctx.settings(['agent'])).agent;
  return configured === undefined ? undefined : { agent_name: configured };
}

export async function chat(
  ctx: Context,
  ref: SessionRef | undefined,
  flags: ChatFlags,
): Promise<Item | ChatItem> {
  requireTerminal(ctx);
  const client = await ctx.client();
  let agent: AgentSelection | undefined;
  let backlog: Backlog | undefined;
  if (ref !== undefined) {
    const { id } = await resolveSession(ref, await ctx.history());
    agent = await knownAgent(ctx, flags);
    backlog = await loadBacklog(ctx, id, flags.turns);
  } else {
    agent = await selectAgent(
      flags,
      async () => (await ctx.settings(['agent'])).agent,
      ctx.prompts && (() => ctx.prompts!.agent()),
    );
  }

  const connection = requireConnection(await ctx.settings(['apiKey', 'baseUrl']));
  const poller = ctx.clientFor({ ...connection, retry: POLL_RETRY });
  const { private: hidden, yes, notify } = flags;
  const chat = new Chat({ ctx, client, poller, agent, private: hidden, yes, notify });
  const { io } = ctx;
  const terminal = new ChatTerminal({
    stdin: io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    screen: io.stderr.isTTY ? io.stderr : io.stdout,
    style: ctx.styleErr,
    status: (columns, frame) => chat.statusLine(columns, frame),
    onLine: (text) => chat.line(text),
    onLeave: () => chat.quit(),
    complete: completeSlash,
  });
  chat.attach(terminal);
  // SIGTERM, or a SIGINT sent with kill (Ctrl-C itself is a key here): the run is stopped, not left.
  const stopped = ctx.signal.aborted ? Promise.resolve() : once(ctx.signal, 'abort');
  let end: ChatEnd | 'stopped';
  try {
    terminal.start();
    if (backlog !== undefined) chat.resume(backlog);
    end = await Promise.race([chat.ended, stopped.then(() => 'stopped' as const)]);
  } finally {
    chat.close();
    terminal.stop();
    await chat.settled();
  }

  const sessionId = chat.sessionId ?? chat.previousSessionId;
  if (end === 'stopped') {
    const hint = sessionId === undefined ? undefined : `resume with: agents chat ${sessionId}`;
    throw new CliError('interrupted', { exitCode: ExitCode.INTERRUPTED, hint });
  }
  if (end.how === 'error') throw end.error;
  return { kind: 'chat-ended', sessionId };
}
