// Every call `agents acp` makes into the core, in one place: the library's public entry for the service,
// and the CLI's own state (`last`, what `agents ls` knows) around it, which the library leaves to its
// callers. The protocol layer (server.ts, session.ts) imports nothing else of src/.
import { NotFoundError, type Agents, type Session, type Turn } from '../sdk/index.js';
import {
  classify,
  notASession,
  parseSessionRef,
  readKnownSessions,
  recordLast,
  resolveSession,
  type AgentSelection,
  type Entry,
  type UsedSession,
  type Host,
} from '../core/index.js';

export type { AgentSelection, Entry, Turn };

/** An entry of a followed turn; `repeats`: a final whose text is the message just shown (the live service's copy). */
export type Landing = Entry & { repeats?: boolean };

/** A session read whole, as a panel replays it: the conversation oldest first, the thread still running. */
export interface BlocksHistory {
  session: Session;
  entries: Entry[];
  running?: string;
}

/** A pull request as one line: its address, and its status when the service gives one. */
function pullRequestLine(p: { url: string; status?: string }): string {
  return p.status ? `${p.url} (${p.status})` : p.url;
}

export function sessionPullRequests(session: Session): string[] {
  const list: unknown[] = Array.isArray(session.pull_requests) ? session.pull_requests : [];
  return list.flatMap((p) =>
    typeof p === 'string'
      ? [p]
      : typeof p === 'object' && p !== null && 'url' in p
        ? [pullRequestLine(p as { url: string; status?: string })]
        : [],
  );
}

export class Blocks {
  constructor(readonly host: Host<Agents>) {}

  /** Records `last` (and what `agents ls` knows) after a create or send, as the CLI's commands do. */
  private async record(turn: Turn, facts: UsedSession): Promise<void> {
    const entry = { id: turn.sessionId, threadId: turn.threadId };
    const warning = await recordLast(await this.host.history(), entry, { ...facts, state: 'working' });
    if (warning) this.host.log.warn(warning);
  }

  async create(agent: AgentSelection, message: string, signal: AbortSignal): Promise<Turn> {
    const agents = await this.host.agents();
    const turn = await agents.create({
      message,
      signal,
      ...(agent.agent_id !== undefined ? { agentId: agent.agent_id } : { agent: agent.agent_name }),
    });
    // Its title and time too, as a create of the CLI records them: `agents ls` shows them without --refresh.
    const { session } = turn;
    await this.record(turn, {
      agent: agent.agent_name,
      web: turn.url,
      title: session?.title || undefined,
      createdAt: session?.created_at,
    });
    return turn;
  }

  /** A follow-up: a new turn, which interrupts the one in progress. */
  async send(sessionId: string, message: string, signal: AbortSignal): Promise<Turn> {
    const turn = await (await this.host.agents()).send(sessionId, message, { signal });
    await this.record(turn, {});
    return turn;
  }

  /** The turn's messages and tool calls as they land, the final reply last; `timeoutMs` bounds it. */
  async *follow(turn: Turn, signal: AbortSignal, timeoutMs?: number): AsyncGenerator<Landing> {
    const agents = await this.host.agents();
    const ref = { sessionId: turn.sessionId, threadId: turn.threadId };
    const o = { tools: true, signal, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) };
    for await (const l of agents.follow(ref, o)) {
      const kind = l.kind === 'message' ? 'reply' : l.kind;
      yield {
        kind,
        message: l.message,
        ...(l.tool ? { tool: l.tool } : {}),
        ...(l.repeats ? { repeats: true } : {}),
      };
    }
  }

  /** The ended turn's pull requests, as lines (the reply is in hand: one look at the thread, one at the session). */
  async pullRequests(turn: Turn, signal: AbortSignal): Promise<string[]> {
    const ref = { sessionId: turn.sessionId, threadId: turn.threadId };
    const reply = await (await this.host.agents()).wait(ref, { signal });
    return reply.pullRequests.map(pullRequestLine);
  }

  /** The session's latest plan (its artifact, the latest iteration, and its markdown), or none. */
  async plan(
    sessionId: string,
    signal: AbortSignal,
  ): Promise<{ artifactId: string; text: string } | undefined> {
    try {
      return await (await this.host.agents()).plan(sessionId, { signal });
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
    const view = await (await this.host.agents()).show(sessionId, { tools: true, signal });
    return {
      session: view.session,
      entries: view.turns.flatMap((t) => t.messages).map(classify),
      ...(view.runningThreadId ? { running: view.runningThreadId } : {}),
    };
  }

  /** The sessions this machine created or sent to, most recently used first (`agents ls`). */
  async list() {
    return readKnownSessions(await this.host.history());
  }
}
