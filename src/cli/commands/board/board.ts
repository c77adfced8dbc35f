// agents board at a terminal. First paint from the state file alone (no request); then the sessions are
// asked about one at a time within the board's part of the key's budget (poll-plan.ts).
import type { Context } from '../../run/context.js';
import {
  type ApiClient,
  CliError,
  CORE_AGENTS,
  ExitCode,
  type History,
  isHttpError,
  nextDelay,
  noteSessionFacts,
  type PollShare,
  readKnownSessions,
  toCliError,
} from '../../../core/index.js';
import type { Key } from '../../chat/input-line.js';
import { present } from '../../output/presenter.js';
import { escapeForLine } from '../../../util/text.js';
import { send } from '../send/run.js';
import { create } from '../create/run.js';
import { away, browse, posted, type ScreenAction } from './actions.js';
import { renderFrame, safeText, scrollTop, tableHeight } from './layout.js';
import { lookAt } from './look.js';
import { nextToPoll, pauseAfter, type PollRow } from './poll-plan.js';
import { PromptLine } from './prompt.js';
import { filterRows, groupMarks, orderRows, rowOf, type BoardRow } from './rows.js';
import { BoardScreen } from './screen.js';

export type BoardOptions = { limit: number; notify?: boolean };

type Tracked = BoardRow & PollRow;

/** A question being asked on the message line; `typed`: typing changes something at once (the filter). */
type Asking = { prompt: PromptLine; answer(text: string): void; typed?(text: string): void };

const KEYS =
  '↑↓ move  ⏎ chat  t tail  s show  r reply  n new  c checkout  d diff  o open  / filter  R refresh  q quit';
/** The state file is read again this often, for sessions other runs created or sent to. */
const RELOAD_MS = 2000;
const RETRY_MS = 10_000;

export class Board {
  private rows = new Map<string, Tracked>();
  private shown: Tracked[] = [];
  private selectedId: string | undefined;
  private top = 0;
  private filter = '';
  private asking: Asking | undefined;
  private message = '';
  /** A command has the screen: no drawing, no polling. */
  private away = false;
  private stopped = false;
  private failure: Error | undefined;
  private loadedAt = 0;
  private wakeUp: (() => void) | undefined;
  private readonly screen: BoardScreen;
  private share: PollShare | undefined;
  private readonly ended: Promise<void>;
  private end!: () => void;

  constructor(
    private readonly ctx: Context,
    private readonly o: BoardOptions,
    private readonly client: ApiClient,
    private readonly history: History,
  ) {
    this.screen = new BoardScreen(ctx.io.stdin, ctx.io.stdout, () => this.draw());
    this.screen.keys = this.onKey;
    this.ended = new Promise((resolve) => (this.end = resolve));
  }

  private readonly onKey = (str: string | undefined, key: Key | undefined) => {
    if (this.away) return;
    if (this.asking !== undefined) this.askKey(str, key);
    else this.listKey(str, key);
    this.draw();
  };

  async run(): Promise<void> {
    const stop = () => this.stop();
    this.ctx.signal.addEventListener('abort', stop, { once: true });
    const ticker = setInterval(() => this.draw(), 1000);
    ticker.unref();
    try {
      await this.reload();
      this.screen.enter();
      this.draw();
      this.share = this.client.pollShare();
      await Promise.race([this.polls(), this.ended]);
    } finally {
      this.stop();
      clearInterval(ticker);
      this.share?.close();
      this.screen.leave();
      this.ctx.signal.removeEventListener('abort', stop);
    }
    if (this.failure !== undefined) throw this.failure;
    if (this.ctx.signal.aborted)
      throw new CliError('interrupted', { exitCode: ExitCode.INTERRUPTED, silent: true });
  }

  private stop(failure?: Error): void {
    if (failure !== undefined) this.failure ??= failure;
    this.stopped = true;
    this.wakeUp?.();
    this.end();
  }

  private async reload(): Promise<void> {
    this.loadedAt = Date.now();
    const known = (await readKnownSessions(this.history)).slice(0, this.o.limit);
    const next = new Map<string, Tracked>();
    for (const s of known) {
      const old = this.rows.get(s.id);
      const row: Tracked = { owed: true, ...old, ...rowOf(s, old) };
      // A turn started elsewhere (another run sent to it): polled at once.
      if (old !== undefined && row.threadId !== old.threadId) row.dueAt = 0;
      next.set(s.id, row);
    }
    this.rows = next;
    this.arrange();
  }

  private arrange(): void {
    this.shown = filterRows(orderRows([...this.rows.values()]), this.filter) as Tracked[];
    if (!this.shown.some((r) => r.id === this.selectedId)) this.selectedId = this.shown[0]?.id;
  }

  draw(): void {
    if (this.away || this.stopped) return;
    const { columns, rows } = this.screen;
    const selected = this.shown.findIndex((r) => r.id === this.selectedId);
    const index = Math.max(0, selected);
    this.top = scrollTop(this.top, index, tableHeight(rows));
    const working = this.shown.filter((r) => r.state === 'working').length;
    const filter = this.filter === '' ? '' : ` · filter "${safeText(this.filter, 40)}"`;
    this.screen.draw(
      renderFrame({
        columns,
        rows,
        list: this.shown,
        marks: groupMarks(this.shown),
        selected: index,
        top: this.top,
        header: `agents board · ${this.history.profile} · ${this.shown.length} sessions · ${working} working${filter}`,
        message: this.asking?.prompt.line() ?? this.message,
        keys: KEYS,
        now: Date.now(),
        style: this.ctx.styleOut,
      }),
    );
  }

  /** Sleeps `ms`; `wakes`: a new session or R ends the sleep early (a pause for the budget never ends early). */
  private sleep(ms: number, wakes: boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = wakes || this.stopped ? done : () => (this.stopped ? done() : undefined);
    });
  }

  private async polls(): Promise<void> {
    while (!this.stopped) {
      if (!this.away && Date.now() - this.loadedAt >= RELOAD_MS) await this.reload();
      const now = Date.now();
      const next = this.away ? undefined : nextToPoll([...this.rows.values()], now);
      if (next === undefined) await this.sleep(this.away ? 60_000 : RELOAD_MS, true);
      else {
        const requests = await this.poll(next as Tracked, now);
        this.draw();
        await this.sleep(pauseAfter(requests, this.share?.gapMs(), this.ctx.schedule.minMs), false);
      }
    }
  }

  private async poll(row: Tracked, now: number): Promise<number> {
    const whole = row.owed;
    try {
      const learnt = await lookAt(this.client, row, whole, this.ctx.signal);
      this.learnt(row, learnt.facts, whole, now);
      return learnt.requests;
    } catch (err) {
      if (this.stopped) return 0;
      if (isHttpError(err) && (err.kind === 'auth' || err.kind === 'forbidden')) this.stop(err);
      row.owed = false;
      row.dueAt = now + RETRY_MS;
      this.message = `could not read session ${row.id}: ${escapeForLine(toCliError(err).message)}`;
      return 1;
    }
  }

  private learnt(row: Tracked, facts: Partial<BoardRow>, whole: boolean, now: number): void {
    const before = { state: row.state, latest: row.latest, lastAt: row.lastAt };
    Object.assign(row, facts);
    if (whole) row.owed = false;
    if (row.latest !== before.latest || row.lastAt !== before.lastAt) row.activeAt = now;
    if (row.state === 'working')
      row.dueAt = now + nextDelay(now - (row.activeAt ?? now), 0, this.ctx.schedule);
    if (before.state === 'working' && row.state === 'finished') void this.finished(row);
    if (whole) void noteSessionFacts(this.history, [{ id: row.id, title: row.title, web: row.web }]);
    this.arrange();
  }

  /** A session that finished while another is selected, through wait's own notification. */
  private async finished(row: Tracked): Promise<void> {
    const { notify } = this.o;
    if (notify === false || row.id === this.selectedId) return;
    const { agent = 'the agent', title } = row;
    await present(this.ctx, { kind: 'wait-ended', who: agent, title, outcome: 'replied', notify });
  }

  private move(by: number): void {
    const index = this.shown.findIndex((r) => r.id === this.selectedId);
    const to = Math.min(this.shown.length - 1, Math.max(0, index + by));
    this.selectedId = this.shown[to]?.id;
  }

  private listKey(str: string | undefined, key: Key | undefined): void {
    const name = key?.name;
    if (str === 'q' || (key?.ctrl && name === 'c')) return this.stop();
    if (name === 'up' || str === 'k') return this.move(-1);
    if (name === 'down' || str === 'j') return this.move(1);
    if (name === 'pageup') return this.move(-tableHeight(this.screen.rows));
    if (name === 'pagedown') return this.move(tableHeight(this.screen.rows));
    if (str === '/') return this.askFilter();
    if (str === 'n') return this.askNew();
    if (str === 'R') return this.refreshAll();
    const row = this.shown.find((r) => r.id === this.selectedId);
    if (row === undefined) return;
    if (name === 'return') return void this.takeScreen('chat', row);
    const onScreen: Record<string, ScreenAction> = { t: 'tail', s: 'show', c: 'checkout', d: 'diff' };
    if (str !== undefined && Object.hasOwn(onScreen, str)) return void this.takeScreen(onScreen[str]!, row);
    if (str === 'r') return this.askReply(row);
    if (str === 'o') return void this.behind(() => browse(this.ctx, row.id));
  }

  private askKey(str: string | undefined, key: Key | undefined): void {
    const asking = this.asking!;
    const got = asking.prompt.key(str, key);
    if (got.done === false) return asking.typed?.(got.text);
    this.asking = undefined;
    if (got.done === 'cancel') {
      asking.typed?.('');
      this.message = '';
    } else asking.answer(got.text);
  }

  private askFilter(): void {
    const typed = (text: string) => {
      this.filter = text;
      this.arrange();
    };
    this.asking = { prompt: new PromptLine('filter: ', this.filter), typed, answer: typed };
  }

  /** A question whose empty answer sends nothing (`what` was empty). */
  private ask(label: string, what: string, answer: (text: string) => unknown): void {
    this.asking = {
      prompt: new PromptLine(label),
      answer: (text) =>
        text.trim() === '' ? (this.message = `nothing sent: ${what} was empty`) : answer(text),
    };
  }

  private askReply(row: Tracked): void {
    const to = safeText(row.title, 40) || row.id;
    this.ask(`reply to ${to} (interrupts a running turn): `, 'the reply', (text) =>
      this.behind(async () => {
        // --yes: the prompt said it interrupts a running turn.
        const done = await posted(send(this.ctx, { kind: 'id', id: row.id }, [text], { yes: true }));
        if (done?.threadId !== undefined) {
          Object.assign(row, { threadId: done.threadId, state: 'working', owed: false, dueAt: 0 });
          row.activeAt = Date.now();
        }
        return done?.warning ?? `sent a follow-up to ${to}`;
      }),
    );
  }

  private askNew(): void {
    this.ask('new session, the prompt: ', 'the prompt', (text) => this.askAgent(text));
  }

  private async askAgent(text: string): Promise<void> {
    const configured = (await this.ctx.settings(['agent']).catch(() => undefined))?.agent;
    const offer = configured === undefined ? '' : ` [${configured}]`;
    this.asking = {
      prompt: new PromptLine(`agent (${CORE_AGENTS.join(', ')})${offer}: `),
      answer: (typed) => {
        const agent = typed.trim() || configured;
        if (agent === undefined || !(CORE_AGENTS as readonly string[]).includes(agent)) {
          this.message = `nothing sent: ${agent === undefined ? 'no agent given' : `not an agent: ${agent}`}`;
          return;
        }
        void this.behind(async () => {
          const made = await posted(create(this.ctx, [text], { agent }));
          await this.reload();
          if (made !== undefined) this.selectedId = made.sessionId;
          this.arrange();
          this.wakeUp?.();
          return made?.warning ?? `created session ${made?.sessionId ?? ''} (${agent})`;
        });
      },
    };
    this.draw();
  }

  private refreshAll(): void {
    for (const row of this.rows.values()) row.owed = true;
    this.message = 'refreshing every session';
    this.wakeUp?.();
  }

  private async behind(work: () => Promise<string>): Promise<void> {
    this.message = 'working…';
    this.draw();
    try {
      this.message = await work();
    } catch (err) {
      const e = toCliError(err);
      this.message = `error: ${escapeForLine(e.message)}${e.hint ? ` (${escapeForLine(e.hint)})` : ''}`;
    }
    this.draw();
  }

  private async takeScreen(what: ScreenAction, row: Tracked): Promise<void> {
    this.away = true;
    await away(this.ctx, this.screen, what, row.id, safeText(row.title, 60) || row.id);
    this.away = false;
    if (this.ctx.signal.aborted) return this.stop();
    if (this.stopped) return;
    this.screen.enter();
    await this.reload();
    this.wakeUp?.();
    this.draw();
  }
}
