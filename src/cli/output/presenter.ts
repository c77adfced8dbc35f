// The one presenter: what commands return becomes JSON (a document, or NDJSON for streams), terminal text
// (labels, colour, local times, markdown, service text neutralised, a pager for a tall `show`) or plain
// text (the service's text byte for byte) on stdout, and summaries and hints on stderr.
import type { Message } from '../../core/api/types.js';
import { latestTurnState } from '../../core/conversation/turn-state.js';
import { pagerCommand, pagerEnv, timeFormat } from '../../core/config/env.js';
import { openInBrowser } from './browser.js';
import type { Item, Result } from './items.js';
import { loadMarkdown, type RenderMarkdown } from './markdown.js';
import { COMMAND_HANDLERS } from './print-commands.js';
import { WAIT_HANDLERS } from './print-waits.js';
import { PULL_HANDLERS } from './print-pulls.js';
import { BUDGET_HANDLERS } from './print-budget.js';
import { jsonLine, type Handler, type Handlers, type PresentContext, type Printer } from './printer.js';
import { renderSessionCard } from './render.js';
import { renderConversation, renderNotice, serviceText, type TextMode } from './render-conversation.js';
import type { StatusLines } from './status-lines.js';
import { supportsHyperlinks } from './terminal.js';
import { screenLines } from './screen.js';

function isItem(result: Result): result is Item {
  return typeof result === 'object' && result !== null && 'kind' in result;
}

export type { PresentContext };

/** Every item kind's handler: a table, so that a new kind is one small function where its like are. */
const HANDLERS: Handlers<Item['kind']> = {
  ...WAIT_HANDLERS,
  ...COMMAND_HANDLERS,
  ...PULL_HANDLERS,
  ...BUDGET_HANDLERS,
};

/** Prints what a command returned, item by item, as it comes. */
export async function present(ctx: PresentContext, result: Result): Promise<void> {
  if (result === undefined) return;
  const p = new Presenter(ctx);
  try {
    if (isItem(result)) await p.write(result);
    else for await (const item of result) await p.write(item);
  } finally {
    p.finish();
  }
}

/** Whether an item shows message text (markdown on a terminal). */
function showsMessages(item: Item): boolean {
  switch (item.kind) {
    case 'reply':
    case 'conversation':
      return true;
    case 'entry':
      return ['user', 'reply', 'final'].includes(item.entry.kind);
    case 'artifact':
      return item.what === 'plan' && item.written === undefined;
    default:
      return false;
  }
}

class Presenter implements Printer {
  readonly json: boolean;
  readonly text: TextMode;
  private status: StatusLines | undefined;
  /** The markdown renderers, with and without hyperlinks (a pager gets none), loaded on first use. */
  private readonly markdown = new Map<boolean, Promise<RenderMarkdown>>();

  constructor(readonly ctx: PresentContext) {
    this.json = ctx.globals.json === true;
    const tty = ctx.caps.stdoutIsTTY;
    this.text = {
      tty,
      style: ctx.styleOut,
      columns: ctx.caps.columns,
      ...(tty ? { time: timeFormat(ctx.io.env) } : {}),
    };
  }

  /** The terminal's markdown renderer (loaded once; a run that shows no message never loads it). */
  private renderer(hyperlinks: boolean): Promise<RenderMarkdown> {
    let r = this.markdown.get(hyperlinks);
    if (r === undefined) {
      r = loadMarkdown({ columns: this.ctx.caps.columns, color: this.ctx.caps.colorOut, hyperlinks });
      this.markdown.set(hyperlinks, r);
    }
    return r;
  }

  out(text: string): void {
    this.ctx.stderr.around(() => this.ctx.io.stdout.write(text));
  }

  notice(m: Message): void {
    this.ctx.log.info(renderNotice(m, { tty: this.ctx.caps.stderrIsTTY, style: this.ctx.styleErr }));
  }

  async statusLines(): Promise<StatusLines> {
    return (this.status ??= await this.ctx.statusLines());
  }

  /** Prints one item, by the handler of its kind. */
  async write(item: Item): Promise<void> {
    if (this.text.tty && !this.json && this.text.markdown === undefined && showsMessages(item)) {
      this.text.markdown = await this.renderer(supportsHyperlinks(this.ctx.io.env));
    }
    await (HANDLERS[item.kind] as Handler<Item['kind']>)(this, item);
  }

  /** Whatever a wait left on stderr (a spinner, status lines) is taken off once the items end. */
  finish(): void {
    this.ctx.progress.stop();
    this.status?.stop();
  }

  /**
   * `show` on a terminal: the compact header and the conversation, through the pager when it is taller
   * than the screen (notices then go with it, where they came: stderr would be drawn over the pager).
   */
  async showOnTerminal(item: Extract<Item, { kind: 'conversation' }>): Promise<void> {
    const { ctx } = this;
    const quiet = ctx.globals.quiet === true;
    const render = (mode: TextMode) => {
      const header = renderSessionCard(item.session, {
        agent: item.agent,
        state: latestTurnState(item.conversation.entries.map((e) => e.message)),
        style: mode.style,
        time: mode.time ?? timeFormat(ctx.io.env),
        verbose: item.verbose,
      });
      const noticeMode = { tty: ctx.caps.stderrIsTTY, style: ctx.styleErr };
      const segments = renderConversation(item.conversation, item.threads, mode, noticeMode, item.running);
      return { header, segments };
    };
    const mode: TextMode = { ...this.text, verbose: item.verbose };
    const pager = item.page ? pagerCommand(ctx.io.env) : undefined;
    const rows = ctx.io.stdout.rows ?? 0;
    if (pager !== undefined && ctx.io.spawner !== undefined && rows > 0) {
      const whole = (r: ReturnType<typeof render>) =>
        `${r.header}\n${r.segments.map((s) => (s.to === 'out' || !quiet ? s.text : '')).join('')}`;
      let text = whole(render(mode));
      if (screenLines(text, this.text.columns ?? 80) > rows) {
        // A pager may not pass hyperlinks through: the links are written out instead.
        if (supportsHyperlinks(ctx.io.env))
          text = whole(render({ ...mode, markdown: await this.renderer(false) }));
        const code = await ctx.io.spawner.pager(pager, text, pagerEnv(ctx.io.env));
        // 127: the shell found no such pager; the text is printed as it would have been without one.
        if (code !== 127) return;
        ctx.log.warn(`the pager "${pager}" was not found (AGENTS_PAGER, PAGER); printing instead`);
      }
    }
    const { header, segments } = render(mode);
    this.out(`${header}\n`);
    for (const s of segments) {
      if (s.to === 'out') this.out(s.text);
      else if (!quiet) ctx.stderr.write(s.text);
    }
  }

  async browse(url: string): Promise<void> {
    const { ctx } = this;
    const { opened, why, error } = await openInBrowser(ctx.io, url);
    if (error !== undefined) ctx.log.warn(`could not start a browser: ${error}`);
    const shown = this.text.tty ? serviceText(url, this.text) : url;
    if (this.json) this.out(jsonLine({ url, opened }));
    else if (!opened) this.out(`${shown}\n`);
    if (opened) ctx.log.info(`Opening ${shown} in your browser.`);
    else if (why !== undefined && ctx.caps.stderrIsTTY)
      ctx.log.hint(`No browser opened here (${why}): the address is above.`);
  }
}
