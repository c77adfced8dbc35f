// One session of the editor's panel over one Blocks session: created with the first prompt, followed while
// a prompt runs (each assistant message once, in the server's order; tool calls; a plan; the pull requests
// at the final reply), cancelled at once, replayed on load. `last` and what `agents ls` knows are recorded
// around the library's calls, as the CLI's commands record them.
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import { NotFoundError, type Agents, type SessionView, type Turn as Posted } from '../sdk/index.js';
import {
  classify,
  recordWorking,
  sessionPullRequests,
  type AgentSelection,
  type Entry,
  type Host,
} from '../core/index.js';
import { agentText, entryUpdate, paragraphGap, planEntries, pullRequestLine } from './updates.js';
import { Turn, type UpdateSink } from './turn.js';

interface PanelOptions {
  host: Host<Agents>;
  /** The server's stop: a POST in flight ends only with it (a cancel never cuts a POST short). */
  signal: AbortSignal;
  notify: UpdateSink;
  /** --send-cwd's directory (in the first message's context line), and --timeout for each prompt. */
  cwd?: string;
  timeoutMs?: number;
}

/** A replay's note when a turn is still running. */
const RUNNING_NOTE = '\n\n_The agent is still working on the last prompt; your next prompt interrupts it._\n';
/** The panel's note at the first cancel: what cancel can and cannot do. */
const CANCEL_NOTE =
  '\n\n_Stopped following. The agent on Blocks goes on working (the API cannot stop it) until your next prompt interrupts it._\n';

export class PanelSession {
  /** The Blocks session, once the first prompt created it (or load named it). */
  blocksId: string | undefined;
  private turn: Turn | undefined;
  /** The plans already shown (their artifact ids), and the pull requests (their lines). */
  private plans = new Set<string>();
  private prs = new Set<string>();
  private noted = false;
  /** The session's address, until the panel has shown it (a cancel may come before it could be). */
  private address: string | undefined;
  /** The editor's updates, one after another; and the POSTs, one after another. */
  private out: Promise<void> = Promise.resolve();
  private posting: Promise<unknown> = Promise.resolve();
  /** The agent text queued last since the user last spoke (a prompt, a replayed one). */
  private said: string | undefined;

  constructor(
    private readonly o: PanelOptions,
    /** The agent of the first message (the config option, or `--agent-id`'s id), until the first prompt. */
    public agent: AgentSelection,
  ) {}

  /** Queues an update (none: nothing) behind the others. */
  private readonly queue = (raw: SessionUpdate | undefined): Promise<void> => {
    if (raw === undefined) return Promise.resolve();
    const update = this.paragraphed(raw);
    const next = this.out.then(() => this.o.notify(update));
    this.out = next.catch(() => undefined);
    return next;
  };

  /** Each agent message a paragraph of its own (see paragraphGap). */
  private paragraphed(update: SessionUpdate): SessionUpdate {
    if (update.sessionUpdate === 'user_message_chunk') this.said = undefined;
    if (update.sessionUpdate !== 'agent_message_chunk' || update.content.type !== 'text') return update;
    const text = paragraphGap(this.said, update.content.text) + update.content.text;
    this.said = text;
    return text === update.content.text ? update : agentText(text);
  }

  /** A prompt: posts it (the first creates the session) and follows the turn to its final reply. */
  async prompt(text: string): Promise<StopReason> {
    // The editor shows the prompt: what the agent says next opens a message of its own.
    this.said = undefined;
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
    try {
      const reason = await Promise.race([work, turn.stopped]);
      await this.out;
      return reason;
    } finally {
      // Ended, whichever way: a cancel from now on has no prompt to end.
      turn.done = true;
    }
  }

  /** session/cancel: the prompt ends with `cancelled` now; the remote agent is said to go on, once. */
  cancel(): void {
    const note = this.noted ? undefined : agentText(CANCEL_NOTE);
    if (this.turn?.cancel(note) && note) this.noted = true;
  }

  private async run(turn: Turn, text: string): Promise<void> {
    // One POST at a time: a prompt sent while the first one creates the session must follow up on it.
    const post = this.posting.then(() => this.post(text));
    this.posting = post.catch(() => undefined);
    const posted = await post;
    if (turn.done) return;
    if (this.address !== undefined) {
      const shown = turn.send(agentText(`Blocks session: ${this.address}\n\n`));
      this.address = undefined;
      await shown;
    }
    await this.follow(turn, posted);
  }

  private async post(text: string): Promise<Posted> {
    const { host, signal } = this.o;
    const agents = await host.agents();
    if (this.blocksId !== undefined) {
      const sent = await agents.send(this.blocksId, text, { signal });
      await recordWorking(host, sent);
      return sent;
    }
    const message =
      this.o.cwd === undefined ? text : `(working directory in the editor: ${this.o.cwd})\n\n${text}`;
    const { agent_id, agent_name } = this.agent;
    const made = await agents.create({
      message,
      signal,
      ...(agent_id !== undefined ? { agentId: agent_id } : { agent: agent_name }),
    });
    // Its title and time too, as a create of the CLI records them: `agents ls` shows them without --refresh.
    const { session } = made;
    const facts = { title: session?.title || undefined, createdAt: session?.created_at };
    await recordWorking(host, made, { agent: agent_name, web: made.url, ...facts });
    this.blocksId = made.sessionId;
    this.address = made.url || undefined;
    host.log.info(`agents acp: session ${made.sessionId} created`);
    return made;
  }

  /** Follows the turn (its own thread alone: what a cancelled or interrupted turn still says is not this
   * prompt's) to its final reply, or until the turn is cancelled, or --timeout runs out. */
  private async follow(turn: Turn, posted: Posted): Promise<void> {
    const o = { tools: true, signal: turn.signal, timeout: this.o.timeoutMs };
    for await (const l of (await this.o.host.agents()).follow(posted, o)) {
      const e: Entry = { kind: l.kind === 'message' ? 'reply' : l.kind, message: l.message, tool: l.tool };
      if (l.kind === 'final') return this.ended(turn, posted, e, l.repeats === true);
      await turn.send(entryUpdate(e));
    }
  }

  /** The final reply: the new plan, the reply (unless just shown, the live service's copy), new pull requests. */
  private async ended(turn: Turn, posted: Posted, final: Entry, shown: boolean): Promise<void> {
    const [plan, prs] = await Promise.all([
      this.newPlan(posted.sessionId, turn.signal),
      this.pullRequests(posted, turn.signal),
    ]);
    await turn.send(plan);
    await turn.send(shown ? undefined : entryUpdate(final));
    await turn.send(this.newPullRequests(prs));
    turn.done = true;
  }

  /** The ended turn's pull requests, as lines (the reply is in hand: one look at the thread, one at the session). */
  private async pullRequests(posted: Posted, signal: AbortSignal): Promise<string[]> {
    try {
      return (await (await this.o.host.agents()).wait(posted, { signal })).pullRequests.map(pullRequestLine);
    } catch (err) {
      this.o.host.log.warn(`agents acp: the session's pull requests could not be read: ${String(err)}`);
      return [];
    }
  }

  /** The pull requests the panel has not shown (new ones, or a new status), as one message. */
  private newPullRequests(lines: readonly string[]): SessionUpdate | undefined {
    const fresh = lines.filter((l) => !this.prs.has(l));
    for (const l of lines) this.prs.add(l);
    if (fresh.length === 0) return undefined;
    return agentText(`\n\nPull requests:\n${fresh.map((p) => `- ${p}`).join('\n')}\n`);
  }

  /** The session's latest plan as an update, when the panel has not shown it. */
  private async newPlan(sessionId: string, signal: AbortSignal): Promise<SessionUpdate | undefined> {
    try {
      const plan = await (await this.o.host.agents()).plan(sessionId, { signal });
      if (this.plans.has(plan.artifactId)) return undefined;
      this.plans.add(plan.artifactId);
      return { sessionUpdate: 'plan', entries: planEntries(plan.text) };
    } catch (err) {
      if (!(err instanceof NotFoundError)) {
        this.o.host.log.warn(
          `agents acp: the plan of session ${sessionId} could not be read: ${String(err)}`,
        );
      }
      return undefined;
    }
  }

  /** session/load: replays the conversation (prompts, replies, tool calls, the plan, the pull requests). */
  async load(view: SessionView): Promise<void> {
    const { session } = view;
    this.blocksId = session.id;
    for (const m of view.turns.flatMap((t) => t.messages)) await this.queue(entryUpdate(classify(m)));
    if ((session.plan_artifact_ids ?? []).length > 0)
      await this.queue(await this.newPlan(session.id, this.o.signal));
    await this.queue(this.newPullRequests(sessionPullRequests(session).map(pullRequestLine)));
    if (view.runningThreadId) await this.queue(agentText(RUNNING_NOTE));
    await this.out;
  }

  /** The connection closed: every prompt in flight stops. */
  close(): void {
    this.turn?.cancel();
  }
}
