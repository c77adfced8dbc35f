// Every call `agents acp` makes into the core, in one place: the library's public entry (src/sdk: create,
// send, follow, wait, show, plan) for the service, and the CLI's own settings and state (`last`, what
// `agents ls` knows) around it, which the library leaves to its callers. The protocol layer (server.ts,
// session.ts) imports nothing else of src/.
import { NotFoundError, type Agents, type Landed, type Message, type Session } from '../sdk/index.js';
import {
  classify,
  notASession,
  parseSessionRef,
  readKnownSessions,
  recordLast,
  resolveSession,
  type AgentSelection,
  type Entry,
  type KnownSession,
  type UsedSession,
  type Host,
} from '../core/index.js';

export type { AgentSelection, Entry, KnownSession };

/** A turn the service took: the session, the turn's thread, and (create) the dashboard address. */
export interface BlocksTurn {
  sessionId: string;
  threadId: string;
  webUrl?: string;
}

/** A session read whole, as a panel replays it. */
export interface BlocksHistory {
  session: Session;
  /** The conversation, oldest first: prompts, replies, tool calls (notices and the service's copies left out). */
  entries: Entry[];
  /** The thread the agent is still working on, if any. */
  running?: string;
}

/** A plan the agent wrote: its artifact (the latest iteration) and its markdown. */
export interface BlocksPlan {
  artifactId: string;
  text: string;
}

/**
 * A message of a followed turn as the panel shows it; `final` ends the turn, `repeats` when its text is the
 * message just shown (the live service's copy, which the library marks).
 */
function entryOf(l: Landed): Entry & { repeats?: boolean } {
  if (l.kind === 'tool') return { kind: 'tool', message: l.message, ...(l.tool ? { tool: l.tool } : {}) };
  return {
    kind: l.kind === 'final' ? 'final' : 'reply',
    message: l.message,
    ...(l.repeats ? { repeats: true } : {}),
  };
}

/** A pull request as one line: its address, and its status when the service gives one. */
function pullRequestLine(p: { url: string; status?: string }): string {
  return p.status ? `${p.url} (${p.status})` : p.url;
}

/** The core, for one run of `agents acp`. */
export class Blocks {
  constructor(private readonly host: Host<Agents>) {}

  /** Whether a key is configured (flag, environment or profile); a bad configuration says so when used. */
  async hasKey(): Promise<boolean> {
    try {
      return (await this.host.apiKey()) !== undefined;
    } catch {
      return true;
    }
  }

  /** The key, to blank out of anything sent to the editor (none when unreadable). */
  async secret(): Promise<string | undefined> {
    try {
      return await this.host.apiKey();
    } catch {
      return undefined;
    }
  }

  /** The agent configured for new sessions (env AGENTS_AGENT, config "agent"), if any. */
  async configuredAgent() {
    return await this.host.defaultAgent();
  }

  /** The library's client with the run's settings, made once (the CLI's error when a key or base URL is missing). */
  agents(): Promise<Agents> {
    return this.host.agents();
  }

  /** Records `last` (and what `agents ls` knows) after a create or send, as the CLI's commands do. */
  private async record(turn: BlocksTurn, facts: UsedSession): Promise<void> {
    const entry = { id: turn.sessionId, threadId: turn.threadId };
    const warning = await recordLast(await this.host.history(), entry, facts);
    if (warning) this.host.log.warn(warning);
  }

  /** A new session with its first message. */
  async create(agent: AgentSelection, message: string, signal: AbortSignal): Promise<BlocksTurn> {
    const agents = await this.agents();
    const turn = await agents.create({
      message,
      signal,
      ...(agent.agent_id !== undefined ? { agentId: agent.agent_id } : { agent: agent.agent_name }),
    });
    const made = {
      sessionId: turn.sessionId,
      threadId: turn.threadId,
      ...(turn.url ? { webUrl: turn.url } : {}),
    };
    // Its title and time too, as a create of the CLI records them: `agents ls` shows them without --refresh.
    const { session } = turn;
    await this.record(made, {
      agent: agent.agent_name,
      web: turn.url,
      title: session?.title || undefined,
      createdAt: session?.created_at,
      state: 'working',
    });
    return made;
  }

  /** A follow-up: a new turn, which interrupts the one in progress. */
  async send(sessionId: string, message: string, signal: AbortSignal): Promise<BlocksTurn> {
    const turn = await (await this.agents()).send(sessionId, message, { signal });
    const sent = { sessionId, threadId: turn.threadId };
    await this.record(sent, { state: 'working' });
    return sent;
  }

  /**
   * The turn's messages and tool calls as they land, each once in the server's order, its final reply last;
   * `timeoutMs` bounds it (the library's TimeoutError, naming the session and the turn).
   */
  async *follow(
    turn: BlocksTurn,
    signal: AbortSignal,
    timeoutMs?: number,
  ): AsyncGenerator<Entry & { repeats?: boolean }> {
    const agents = await this.agents();
    const ref = { sessionId: turn.sessionId, threadId: turn.threadId };
    const o = { tools: true, signal, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) };
    for await (const landed of agents.follow(ref, o)) yield entryOf(landed);
  }

  /** The ended turn's pull requests, as lines (the reply is in hand: one look at the thread, one at the session). */
  async pullRequests(turn: BlocksTurn, signal: AbortSignal): Promise<string[]> {
    const reply = await (await this.agents()).wait(turn, { signal });
    return reply.pullRequests.map(pullRequestLine);
  }

  /** The session's latest plan, or none. */
  async plan(sessionId: string, signal: AbortSignal): Promise<BlocksPlan | undefined> {
    try {
      return await (await this.agents()).plan(sessionId, { signal });
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /** The session a reference names (an id, an address, `last`). */
  async resolve(reference: string): Promise<string> {
    const ref = parseSessionRef(reference);
    if (ref === undefined) throw notASession(reference);
    return (await resolveSession(ref, await this.host.history())).id;
  }

  /** The session and its whole conversation, tool calls included, oldest first. */
  async show(sessionId: string, signal: AbortSignal): Promise<BlocksHistory> {
    const view = await (await this.agents()).show(sessionId, { tools: true, signal });
    const messages: Message[] = view.turns.flatMap((t) => t.messages);
    return {
      session: view.session,
      entries: messages.map(classify),
      ...(view.runningThreadId ? { running: view.runningThreadId } : {}),
    };
  }

  /** The session's pull requests as lines. */
  sessionPullRequests(session: Session): string[] {
    const list: unknown[] = Array.isArray(session.pull_requests) ? session.pull_requests : [];
    return list.flatMap((p) =>
      typeof p === 'string'
        ? [p]
        : typeof p === 'object' && p !== null && 'url' in p
          ? [pullRequestLine(p as { url: string; status?: string })]
          : [],
    );
  }

  /** The sessions this machine created or sent to, most recently used first (`agents ls`). */
  async list(): Promise<KnownSession[]> {
    return readKnownSessions(await this.host.history());
  }

  /** Logs a line on stderr (stdout is the protocol's). */
  log(level: 'info' | 'warn' | 'debug', line: string): void {
    this.host.log[level](line);
  }
}
