// The conversation behind `agents chat`: created by the first message, followed (tail's model), follow-ups
// sent (confirmed when they interrupt), slash commands. It draws nothing: it prints through the ChatTerminal.
import type { Context } from '../run/context.js';
import {
  type AgentSelection,
  type ApiClient,
  CliError,
  ConversationFollow,
  type CoreAgent,
  type Entry,
  fromHttpError,
  isHttpError,
  type Message,
  type Posted,
  postTurn,
  type Session,
  startDeadline,
  timeFormat,
} from '../../core/index.js';
import { notify } from '../output/notify.js';
import { renderCreated } from '../output/render.js';
import {
  renderConversation,
  renderEntry,
  renderNotice,
  type TextMode,
} from '../output/render-conversation.js';
import type { Backlog } from './backlog.js';
import { keepReply, reason, sessionCommand, type CommandHost } from './commands.js';
import { renderHelp, renderNote, renderResumed, renderSent } from './chat-render.js';
import { messageText, parseSlash, type Slash } from './slash.js';
import { activityOf, statusLine, type StatusInfo } from './status-line.js';
import type { ChatTerminal } from './chat-terminal.js';

export interface ChatOptions {
  ctx: Context;
  client: ApiClient;
  /** The client the follow polls with (fewer retries of its own: see the chat command). */
  poller: ApiClient;
  /** The agent new sessions go to (/new, or the first message); undefined when not known. */
  agent: AgentSelection | undefined;
  private?: boolean;
  /** --yes: a follow-up interrupts a running turn without asking. */
  yes?: boolean;
  /** --notify / --no-notify / neither (the `notify` setting decides). */
  notify?: boolean;
}

export type ChatEnd = { how: 'quit' } | { how: 'error'; error: unknown };

const agentLabel = (agent: AgentSelection | undefined): string =>
  agent?.agent_name || (agent?.profile && !agent.agent_id ? 'agent profile' : 'agent');

/** A failure the follow cannot ride out (a revoked key, a deleted session), naming the session. */
function followError(err: unknown, sessionId: string): unknown {
  if (!isHttpError(err)) return err;
  const { message, exitCode, hint } = fromHttpError(err);
  return new CliError(`${message} (while following session ${sessionId})`, { exitCode, hint, cause: err });
}

export class Chat implements CommandHost {
  readonly status: StatusInfo;
  sessionId: string | undefined;
  /** The session before a /new, so that leaving can still name it. */
  previousSessionId: string | undefined;
  session: Session | undefined;
  private agent: AgentSelection | undefined;
  /** The thread of the turn the status line follows. */
  private turnThread: string | undefined;
  private readonly threadsDone = new Set<string>();
  private lastFinal: Message | undefined;
  private lastAny: Message | undefined;
  private follow: { wake(): void; stop(): void } | undefined;
  private busy = false;
  /** The latest post with its record of `last`, which leaving the chat lets finish. */
  private recording: Promise<unknown> = Promise.resolve();
  private finish!: (end: ChatEnd) => void;
  readonly ended: Promise<ChatEnd> = new Promise((resolve) => (this.finish = resolve));
  terminal!: ChatTerminal;
  readonly ctx: Context;
  readonly client: ApiClient;

  constructor(private readonly o: ChatOptions) {
    ({ ctx: this.ctx, client: this.client, agent: this.agent } = o);
    this.status = { label: agentLabel(o.agent), phase: 'new' };
  }

  /** The terminal it prints to (made after the Chat, since it reports to it). */
  attach(terminal: ChatTerminal): void {
    this.terminal = terminal;
  }

  statusLine(columns: number | undefined, frame: number): string {
    return statusLine(this.status, Date.now(), frame, columns, this.ctx.styleErr);
  }

  /** The reply /copy and /save take: the newest final, else the newest reply. */
  get lastReply(): Message | undefined {
    return this.lastFinal ?? this.lastAny;
  }

  /** Times as show writes them on a terminal: local, relative to now. */
  mode(): TextMode {
    const { styleOut: style, io } = this.ctx;
    const { columns } = io.stdout;
    const time = timeFormat(io.env);
    return { tty: true, style, columns: columns && columns > 0 ? columns : undefined, time };
  }

  note(text: string): void {
    this.terminal.print(renderNote(text, this.ctx.styleErr), 'err');
  }

  warn(err: unknown, lead: string): void {
    const { text, hint } = reason(err);
    const style = this.ctx.styleErr;
    this.terminal.print(`${style.yellow(`${lead}:`)} ${renderNote(text, style)}`, 'err');
    if (hint) this.note(`hint: ${hint}`);
  }

  private setPhase(phase: StatusInfo['phase']): void {
    this.status.phase = phase;
    this.terminal.ticking(phase === 'running' || phase === 'sending');
    this.terminal.draw();
  }

  /** Carries on a session read by loadBacklog: prints its last turns and follows it from there. */
  resume(b: Backlog): void {
    const { ctx } = this;
    this.session = b.session;
    this.sessionId = b.session.id;
    const named = typeof b.session.agent_name === 'string' ? b.session.agent_name : undefined;
    // The API does not say which agent a session has (--agent is for /new): its title names it.
    this.status.label = named ?? (b.session.title || 'agent');
    this.terminal.print(`${renderResumed(b.session, ctx.styleErr)}\n`, 'err');
    if (b.truncated) this.note(`earlier messages: /show, or agents show ${b.session.id} --all`);
    const notices = { tty: true, style: ctx.styleErr };
    for (const s of renderConversation(b.conversation, b.threads, this.mode(), notices))
      this.terminal.print(s.text, s.to);
    this.lastFinal = b.lastReply?.type === 'final_message' ? b.lastReply : undefined;
    this.lastAny = b.lastReply;
    if (b.running) {
      this.turnThread = b.running.thread;
      this.status.since = b.running.since;
      this.status.activity = 'working';
      this.setPhase('running');
    } else this.setPhase('idle');
    this.startFollowing(b.seen);
  }

  /** A line typed at the prompt: a slash command or a message. */
  line(text: string): void {
    const slash = parseSlash(text);
    const run = slash ? this.command(slash) : this.send(messageText(text));
    run.catch((err: unknown) => this.finish({ how: 'error', error: err }));
  }

  quit(): void {
    this.finish({ how: 'quit' });
  }

  /** Resolves once the latest message sent is posted and recorded as `last`. */
  async settled(): Promise<void> {
    await this.recording;
  }

  close(): void {
    this.follow?.stop();
    this.follow = undefined;
  }

  /**
   * Polls every turn from `after` (the messages shown). An outage is ridden out with a warning, as a --wait
   * with --timeout does; a failure polling again cannot cure ends the chat.
   */
  private startFollowing(after: readonly Message[]): void {
    const sessionId = this.sessionId!;
    const stop = new AbortController();
    const signal = AbortSignal.any([this.ctx.signal, stop.signal]);
    const warn = (err: unknown) => this.warning(`${reason(err).text}; still trying`);
    const follow = new ConversationFollow({
      client: this.o.poller,
      target: { sessionId },
      // Every message type: a chat shows tool calls as they happen.
      types: ['message', 'final_message', 'tool_call'],
      signal,
      schedule: this.ctx.schedule,
      shown: after,
      policy: 'show',
      maxFailedPolls: Number.POSITIVE_INFINITY,
      onTransientError: warn,
      // The client rides out an outage inside one poll (up to a minute): the status line says so meanwhile.
      onRetrying: warn,
    });
    void (async () => {
      try {
        for await (const entries of follow.polls()) {
          if (stop.signal.aborted) return;
          this.warning(undefined);
          for (const e of entries) this.entry(e);
        }
      } catch (err) {
        if (!signal.aborted) this.finish({ how: 'error', error: followError(err, sessionId) });
      }
    })();
    this.follow = { wake: () => follow.wake(), stop: () => stop.abort('closed') };
  }

  /** The service is failing (a line for the status line), or answers again (undefined). */
  private warning(warning: string | undefined): void {
    if (warning === this.status.warning) return;
    this.status.warning = warning;
    this.terminal.draw();
  }

  /** One entry of the conversation as it lands. */
  private entry(e: Entry & { repeats?: boolean }): void {
    const { ctx } = this;
    if (e.kind === 'notice') {
      return this.terminal.print(`${renderNotice(e.message, { tty: true, style: ctx.styleErr })}\n`, 'err');
    }
    // The status first: print() redraws the footer under the text once, and drawn with the status before
    // this entry it showed the previous message's activity (a final reply under 'running').
    if (e.kind === 'final') {
      this.lastFinal = e.message;
      if (e.message.chat_thread_id !== null) this.threadsDone.add(e.message.chat_thread_id);
    }
    if (e.kind === 'final' || e.kind === 'reply') this.lastAny = e.message;
    const activity = activityOf(e);
    if (activity !== undefined) this.status.activity = activity;
    const ends =
      e.kind === 'final' && e.message.chat_thread_id === this.turnThread && this.status.phase === 'running';
    if (ends) {
      this.status.tookMs = Date.now() - (this.status.since ?? Date.now());
      this.status.phase = 'idle';
    }
    this.terminal.print(renderEntry(e, this.mode()), 'out');
    if (ends) this.turnEnded();
  }

  private turnEnded(): void {
    // Already set when the final's entry was printed; a new turn clears it.
    this.status.tookMs ??= Date.now() - (this.status.since ?? Date.now());
    this.setPhase('idle');
    // --notify and the `notify` setting: a bell (through the chat's own terminal), or the setting's program.
    const who = this.status.label || 'the agent';
    const body = `${who} replied${this.lastFinal ? `: ${this.lastFinal.message.split('\n')[0] ?? ''}` : ''}`;
    const n = { title: 'agents chat', body, result: this.lastFinal };
    void notify(this.ctx, n, this.o.notify, (bytes) => this.terminal.control(bytes));
    // The question was whether to interrupt: there is nothing to interrupt any more.
    if (this.status.confirming) this.terminal.resolve(true);
  }

  /** Puts `text` back on an empty input line, with a note of why it was not sent. */
  private keep(text: string, why: string): void {
    if (this.terminal.editor.empty) this.terminal.editor.set(text);
    this.note(why);
  }

  /** Sends a message: the first one creates the session. */
  private async send(text: string): Promise<void> {
    const { editor } = this.terminal;
    if (this.busy) return this.keep(text, 'still sending the previous message');
    this.busy = true;
    try {
      if (this.status.phase === 'running' && !this.o.yes) {
        // The text stays in view while the question waits for its key.
        const typed = editor.text;
        editor.set(text);
        this.status.confirming = true;
        const go = await this.terminal.confirm();
        this.status.confirming = false;
        if (!go) return this.note('not sent; the agent carries on');
        editor.set(typed);
      }
      if (this.sessionId === undefined && this.agent === undefined)
        return this.keep(text, 'which agent? /new claude (or codex, gemini, …) starts a session with one');
      const before = this.status.phase;
      const sentAt = Date.now();
      this.setPhase('sending');
      this.terminal.print(renderSent(text, this.sessionId ?? '', this.mode()), 'out');
      const posting = this.post(text);
      this.recording = posting.catch(() => undefined);
      let threadId: string | undefined;
      try {
        const posted = await posting;
        threadId = posted.threadId;
        if (posted.warning) this.note(`warning: ${posted.warning}`);
      } catch (err) {
        if (this.ctx.signal.aborted) return;
        if (editor.empty) editor.set(text);
        this.warn(err, 'not sent');
        if (isHttpError(err) && err.outcomeUnknown) this.note('it may have reached the service: /show');
        return this.setPhase(before);
      }
      editor.remember(text);
      this.turnThread = threadId;
      Object.assign(this.status, { since: sentAt, activity: 'working', tookMs: undefined });
      this.setPhase('running');
      // A quick turn may have ended while the answer to the POST was on its way.
      if (threadId !== undefined && this.threadsDone.has(threadId)) this.turnEnded();
      if (this.follow === undefined) this.startFollowing([]);
      else this.follow.wake();
    } finally {
      this.busy = false;
      this.terminal.draw();
    }
  }

  /**
   * Posts as create and send post, with their handling of a POST cut short; `last` is recorded as they record
   * it (with the agent, so that show names it), without holding up the next message.
   */
  private async post(text: string): Promise<Posted> {
    const { ctx, client } = this;
    const books = await ctx.history();
    const deadline = startDeadline(ctx.signal, undefined);
    try {
      if (this.sessionId === undefined) {
        const body = { message: text, ...this.agent, ...(this.o.private ? { is_private: true } : {}) };
        const posted = await postTurn(client, { kind: 'create', body }, deadline, books);
        this.session = posted.session;
        this.sessionId = posted.sessionId;
        this.terminal.print(`${renderCreated(posted.session, ctx.styleErr)}\n`, 'err');
        return posted;
      }
      const turn = { kind: 'send', sessionId: this.sessionId, body: { message: text } } as const;
      return await postTurn(client, turn, deadline, books);
    } finally {
      deadline.dispose();
    }
  }

  private async command(c: Slash): Promise<void> {
    if (c.name === 'help') this.terminal.print(renderHelp(this.ctx.styleErr), 'err');
    else if (c.name === 'quit') this.quit();
    else if (c.name === 'error') this.note(c.text);
    else if (c.name === 'new') this.startOver(c.agent);
    else if (c.name === 'copy' || c.name === 'save') await keepReply(this, c);
    else await sessionCommand(this, c);
  }

  /** /new: the next message starts a new session, with the same agent or the one named. */
  private startOver(agent: CoreAgent | undefined): void {
    if (agent !== undefined) this.agent = { agent_name: agent };
    if (this.agent === undefined) return this.note('which agent? /new claude (or codex, gemini, …)');
    this.close();
    if (this.sessionId !== undefined) this.previousSessionId = this.sessionId;
    this.sessionId = undefined;
    this.session = undefined;
    this.turnThread = undefined;
    this.lastFinal = this.lastAny = undefined;
    const label = agentLabel(this.agent);
    Object.assign(this.status, { label, since: undefined, tookMs: undefined, warning: undefined });
    this.setPhase('new');
    const previous = this.previousSessionId ? ` (the last one: agents chat ${this.previousSessionId})` : '';
    this.note(`your next message starts a new session with ${label}${previous}`);
  }
}
