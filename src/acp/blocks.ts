// Every call `agents acp` makes into the core, in one place and shaped like the library's facade (create,
// send, follow, show, plan, list): the protocol layer (server.ts, turn.ts) imports nothing else of src/.
import type { Context } from '../run/context.js';
import type { ApiClient } from '../api/client.js';
import type { CoreAgent, Message, Session } from '../api/types.js';
import type { AgentSelection } from '../input/agent.js';
import { notASession, parseSessionRef } from '../input/session-ref.js';
import { postTurn } from '../sessions/post.js';
import { startDeadline } from '../sessions/deadline.js';
import { resolveSession } from '../sessions/resolve.js';
import { readSession } from '../sessions/read-session.js';
import { artifactRecord, downloadArtifact } from '../sessions/artifacts.js';
import { ConversationFollow, type LandedEntry } from '../sessions/follow-conversation.js';
import { assistantMessagesOf } from '../conversation/merge.js';
import type { Entry } from '../conversation/model.js';
import { readKnownSessions, type KnownSession } from '../state/known-sessions.js';
import { CliError } from '../errors/cli-error.js';
import { pullRequestText } from '../output/render.js';

export type { AgentSelection, Entry, LandedEntry, KnownSession };

/** A turn the service took: the session, the turn's thread, and (create) the dashboard address. */
export interface BlocksTurn {
  sessionId: string;
  threadId: string | undefined;
  webUrl?: string;
}

/** A session read whole, as a panel replays it. */
export interface BlocksHistory {
  session: Session;
  /** The conversation, oldest first: prompts, replies, tool calls (notices and the service's copies left out). */
  entries: Entry[];
  /** Every assistant message read: what a follow carries on after. */
  seen: Message[];
  /** The thread the agent is still working on, if any. */
  running?: string;
}

/** What the session says once a turn ends: its pull requests (as lines) and its plans' artifact ids. */
export interface BlocksFacts {
  pullRequests: string[];
  planIds: string[];
}

/** The message types a panel follows: replies and tool calls. */
const TYPES = ['message', 'final_message', 'tool_call'] as const;

/** The core, for one run of `agents acp`. */
export class Blocks {
  constructor(private readonly ctx: Context) {}

  /** Whether a key is configured (flag, environment or profile); a bad configuration says so when used. */
  async hasKey(): Promise<boolean> {
    try {
      return (await this.ctx.settings(['apiKey'])).apiKey !== undefined;
    } catch {
      return true;
    }
  }

  /** The key, to blank out of anything sent to the editor (none when unreadable). */
  async secret(): Promise<string | undefined> {
    try {
      return (await this.ctx.settings(['apiKey'])).apiKey;
    } catch {
      return undefined;
    }
  }

  /** The agent configured for new sessions (env AGENTS_AGENT, config "agent"), if any. */
  async configuredAgent(): Promise<CoreAgent | undefined> {
    return (await this.ctx.settings(['agent'])).agent;
  }

  private client(): Promise<ApiClient> {
    return this.ctx.client();
  }

  private books() {
    return { state: this.ctx.state, profile: this.ctx.profile() };
  }

  /** A new session with its first message (recorded as `last`, as create records it). */
  async create(agent: AgentSelection, message: string, signal: AbortSignal): Promise<BlocksTurn> {
    const client = await this.client();
    const deadline = startDeadline(signal, undefined);
    try {
      const posted = await postTurn(
        client,
        { kind: 'create', body: { message, ...agent } },
        deadline,
        this.books(),
      );
      if (posted.warning) this.ctx.log.warn(posted.warning);
      return {
        sessionId: posted.sessionId,
        threadId: posted.threadId,
        webUrl: posted.session.session_html_url,
      };
    } finally {
      deadline.dispose();
    }
  }

  /** A follow-up: a new turn, which interrupts the one in progress. */
  async send(sessionId: string, message: string, signal: AbortSignal): Promise<BlocksTurn> {
    const client = await this.client();
    const deadline = startDeadline(signal, undefined);
    try {
      const turn = { kind: 'send', sessionId, body: { message } } as const;
      const posted = await postTurn(client, turn, deadline, this.books());
      if (posted.warning) this.ctx.log.warn(posted.warning);
      return { sessionId, threadId: posted.threadId };
    } finally {
      deadline.dispose();
    }
  }

  /**
   * The conversation's entries as they land, a poll at a time, after the messages `after` (each assistant
   * message once, in the server's order); ends when `signal` aborts.
   */
  async *follow(
    sessionId: string,
    after: readonly Message[],
    signal: AbortSignal,
  ): AsyncGenerator<LandedEntry[]> {
    const follow = new ConversationFollow({
      client: await this.client(),
      target: { sessionId },
      types: [...TYPES],
      signal,
      schedule: this.ctx.schedule,
      shown: after,
      policy: 'show',
      onTransientError: (err) =>
        this.ctx.log.warn(`agents acp: ${String((err as Error).message)}; still trying`),
    });
    yield* follow.polls();
  }

  /** The session a reference names (an id, an address, `last`). */
  async resolve(reference: string): Promise<string> {
    const ref = parseSessionRef(reference);
    if (ref === undefined) throw notASession(reference);
    return (await resolveSession(ref, this.ctx.state, this.ctx.profile())).id;
  }

  /** The session and its whole conversation, tool calls included. */
  async show(sessionId: string, signal: AbortSignal): Promise<BlocksHistory> {
    const view = await readSession(await this.client(), sessionId, { tools: true }, { signal });
    const c = view.conversation;
    const seen = assistantMessagesOf(c);
    return {
      session: view.session,
      entries: c.entries,
      seen,
      ...(view.running ? { running: view.running } : {}),
    };
  }

  /** The session's pull requests and plans, read once (when a turn ends). */
  async facts(sessionId: string, signal: AbortSignal): Promise<BlocksFacts> {
    return factsOf(await (await this.client()).getSession(sessionId, { signal }));
  }

  /** A plan's markdown: its artifact's record, then the bytes behind its link. */
  async plan(sessionId: string, artifactId: string, signal: AbortSignal): Promise<string> {
    const client = await this.client();
    const record = await artifactRecord(client, sessionId, artifactId, { signal });
    const fetched = await downloadArtifact(client, record, { signal });
    return fetched.download.bytes.toString('utf8');
  }

  /** The sessions this machine created or sent to, most recently used first (`agents ls`). */
  list(): Promise<KnownSession[]> {
    return readKnownSessions(this.ctx.state, this.ctx.profile());
  }

  /** Logs a line on stderr (stdout is the protocol's). */
  log(level: 'info' | 'warn' | 'debug', line: string): void {
    this.ctx.log[level](line);
  }
}

/** Pure: what a session says of its pull requests and plans. */
export function factsOf(session: Session): BlocksFacts {
  const prs: unknown[] = Array.isArray(session.pull_requests) ? session.pull_requests : [];
  return { pullRequests: prs.map(pullRequestText), planIds: [...(session.plan_artifact_ids ?? [])] };
}

/** A turn whose thread the service did not name cannot be followed to its end. */
export function noThread(sessionId: string): CliError {
  return new CliError(`the service returned no thread for session ${sessionId}`, {
    hint: `read it with: agents show ${sessionId}`,
  });
}
