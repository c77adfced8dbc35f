// One session of the editor's panel over one Blocks session: created with the first prompt, followed while
// a prompt runs (each assistant message once, in the server's order; tool calls; a plan; the pull requests
// at the final reply), cancelled at once, replayed on load.
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import { CliError, ExitCode } from '../errors/cli-error.js';
import { formatDuration } from '../util/duration.js';
import type { Message } from '../api/types.js';
import {
  factsOf,
  noThread,
  type AgentSelection,
  type Blocks,
  type BlocksHistory,
  type LandedEntry,
} from './blocks.js';
import { agentText, entryUpdate, planEntries } from './updates.js';
import { Turn, type UpdateSink } from './turn.js';

/** How a panel session was opened. */
export interface PanelOptions {
  blocks: Blocks;
  /** The run's stop: a POST in flight ends only with it (a cancel never cuts a POST short). */
  signal: AbortSignal;
  /** Sends one update of this session to the editor. */
  notify: UpdateSink;
  /** The agent of the session's first message: a name, or `--agent-id`'s id. */
  agent: AgentSelection;
  /** --send-cwd: the editor's directory, for the first message's context line. */
  cwd?: string;
  /** --timeout: how long a prompt may wait for its final reply. */
  timeoutMs?: number;
}

/** The panel's note at the first cancel: what cancel can and cannot do. */
export const CANCEL_NOTE =
  '\n\n_Stopped following. The agent on Blocks goes on working (the API cannot stop it) until your next prompt interrupts it._\n';

export class PanelSession {
  /** The Blocks session, once the first prompt created it (or load named it). */
  blocksId: string | undefined;
  private turn: Turn | undefined;
  /** Every assistant message followed or replayed: a follow carries on after them. */
  private seen: Message[] = [];
  /** The plans already shown (their artifact ids), and the pull requests (their lines). */
  private plans = new Set<string>();
  private prs = new Set<string>();
  private noted = false;
  /** The editor's updates, one after another; and the POSTs, one after another. */
  private out: Promise<void> = Promise.resolve();
  private posting: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: PanelOptions) {}

  /** The agent new sessions go to (the config option), until the first prompt. */
  get agent(): PanelOptions['agent'] {
    return this.o.agent;
  }

  set agent(agent: PanelOptions['agent']) {
    this.o.agent = agent;
  }

  private readonly queue: UpdateSink = (update) => {
    const next = this.out.then(() => this.o.notify(update));
    this.out = next.catch(() => undefined);
    return next;
  };

  /** A prompt: posts it (the first creates the session) and follows the turn to its final reply. */
  async prompt(text: string): Promise<StopReason> {
    // A prompt while one runs supersedes it (the editor did not cancel): that one ends, cancelled.
    this.turn?.cancel();
    const turn = new Turn(this.queue);
    this.turn = turn;
    const work = this.run(turn, text).then(
      (): StopReason => 'end_turn',
      (err: unknown): StopReason => {
        if (turn.done && turn.signal.aborted) return 'cancelled';
        throw err;
      },
    );
    const reason = await Promise.race([work, turn.stopped]);
    await this.out;
    return reason;
  }

  /** session/cancel: the prompt ends with `cancelled` now; the remote agent is said to go on, once. */
  cancel(): void {
    const note = this.noted ? undefined : agentText(CANCEL_NOTE);
    if (this.turn?.cancel(note) && note) this.noted = true;
  }

  private async run(turn: Turn, text: string): Promise<void> {
    // One POST at a time: a prompt sent while the first one creates the session must follow up on it.
    const post = this.posting.then(() => this.post(turn, text));
    this.posting = post.catch(() => undefined);
    const posted = await post;
    if (turn.done) return;
    if (posted.webUrl !== undefined) await turn.send(agentText(`Blocks session: ${posted.webUrl}\n\n`));
    turn.threadId = posted.threadId;
    await this.follow(turn, posted.sessionId);
  }

  private async post(
    turn: Turn,
    text: string,
  ): Promise<{ sessionId: string; threadId: string; webUrl?: string }> {
    const { blocks, signal } = this.o;
    if (this.blocksId !== undefined) {
      const sent = await blocks.send(this.blocksId, text, signal);
      if (sent.threadId === undefined) throw noThread(sent.sessionId);
      return { sessionId: sent.sessionId, threadId: sent.threadId };
    }
    const message =
      this.o.cwd === undefined ? text : `(working directory in the editor: ${this.o.cwd})\n\n${text}`;
    const made = await blocks.create(this.o.agent, message, signal);
    this.blocksId = made.sessionId;
    blocks.log('info', `agents acp: session ${made.sessionId} created`);
    if (made.threadId === undefined) throw noThread(made.sessionId);
    return {
      sessionId: made.sessionId,
      threadId: made.threadId,
      webUrl: turn.done ? undefined : made.webUrl,
    };
  }

  /** Follows the session until the turn's final reply (or the turn is cancelled, or --timeout runs out). */
  private async follow(turn: Turn, sessionId: string): Promise<void> {
    const { timeoutMs } = this.o;
    const timer = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const signal = timer === undefined ? turn.signal : AbortSignal.any([turn.signal, timer]);
    try {
      for await (const entries of this.o.blocks.follow(sessionId, this.seen, signal)) {
        for (const e of entries) {
          this.seen.push(e.message);
          // What an earlier turn still says (one cancelled or interrupted) is not this prompt's.
          if (e.message.chat_thread_id !== turn.threadId) continue;
          if (e.kind === 'final') return await this.ended(turn, sessionId, e);
          const update = entryUpdate(e);
          if (update !== undefined) await turn.send(update);
        }
      }
    } catch (err) {
      if (timer?.aborted !== true || turn.done) throw err;
    }
    if (turn.done) return;
    throw new CliError(
      `timed out after ${formatDuration(timeoutMs ?? 0)} waiting for the reply on session ${sessionId}`,
      {
        exitCode: ExitCode.TIMEOUT,
        hint: `the agent goes on: send another prompt, or wait for it with: agents wait ${sessionId}`,
      },
    );
  }

  /** The final reply: the new plan first, then the reply, then the pull requests; the turn is over. */
  private async ended(turn: Turn, sessionId: string, final: LandedEntry): Promise<void> {
    const { blocks } = this.o;
    const facts = await blocks.facts(sessionId, turn.signal).catch((err: unknown) => {
      blocks.log(
        'warn',
        `agents acp: the session's pull requests and plan could not be read: ${String(err)}`,
      );
      return undefined;
    });
    const plan = await this.newPlan(sessionId, facts?.planIds ?? [], turn.signal);
    if (plan !== undefined) await turn.send(plan);
    const reply = entryUpdate(final);
    if (reply !== undefined) await turn.send(reply);
    const prs = this.newPullRequests(facts?.pullRequests ?? []);
    if (prs !== undefined) await turn.send(prs);
    turn.finish();
  }

  /** The pull requests the panel has not shown (new ones, or a new status), as one message. */
  private newPullRequests(lines: readonly string[]): SessionUpdate | undefined {
    const fresh = lines.filter((l) => !this.prs.has(l));
    for (const l of lines) this.prs.add(l);
    if (fresh.length === 0) return undefined;
    return agentText(`\n\nPull requests:\n${fresh.map((p) => `- ${p}`).join('\n')}\n`);
  }

  /** The latest plan as an update, when the session has one the panel has not shown. */
  private async newPlan(
    sessionId: string,
    ids: readonly string[],
    signal: AbortSignal,
  ): Promise<SessionUpdate | undefined> {
    const latest = ids.at(-1);
    const fresh = ids.filter((id) => !this.plans.has(id));
    for (const id of ids) this.plans.add(id);
    if (latest === undefined || fresh.length === 0) return undefined;
    try {
      const markdown = await this.o.blocks.plan(sessionId, latest, signal);
      return { sessionUpdate: 'plan', entries: planEntries(markdown) };
    } catch (err) {
      this.o.blocks.log(
        'warn',
        `agents acp: the plan of session ${sessionId} could not be read: ${String(err)}`,
      );
      return undefined;
    }
  }

  /** session/load: replays the conversation (prompts, replies, tool calls, the latest plan); then goes on. */
  async load(history: BlocksHistory): Promise<void> {
    const { session } = history;
    this.blocksId = session.id;
    this.seen = [...history.seen];
    for (const e of history.entries) {
      const update = entryUpdate(e);
      if (update !== undefined) await this.queue(update);
    }
    const plan = await this.newPlan(session.id, session.plan_artifact_ids ?? [], this.o.signal);
    if (plan !== undefined) await this.queue(plan);
    const prs = this.newPullRequests(factsOf(session).pullRequests);
    if (prs !== undefined) await this.queue(prs);
    if (history.running !== undefined) {
      await this.queue(
        agentText('\n\n_The agent is still working on the last prompt; your next prompt interrupts it._\n'),
      );
    }
    await this.out;
  }

  /** The connection closed: every prompt in flight stops. */
  close(): void {
    this.turn?.cancel();
  }
}
