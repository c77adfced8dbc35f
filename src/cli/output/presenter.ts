// The one presenter: what commands return becomes JSON, terminal text or plain text on stdout, notes on stderr.
import { type Message, timeFormat } from '../../core/index.js';
import type { Item, Kinded, Result } from './items.js';
import { loadMarkdown, type RenderMarkdown } from './markdown.js';
import { SHARED_HANDLERS } from './print-shared.js';
import { WAIT_HANDLERS } from './print-waits.js';
import type { Handler, Handlers, PresentContext, Printer } from './printer.js';
import { renderNotice, type TextMode } from './render-conversation.js';
import type { StatusLines } from './status-lines.js';
import { supportsHyperlinks } from './terminal.js';

/** The handler of each kind every command may yield: a new kind is one small function where its like are. */
const HANDLERS: Handlers<Item> = { ...WAIT_HANDLERS, ...SHARED_HANDLERS };

/** Prints what a command returned, item by item, as it comes; `own`: the handlers of the command's own items. */
export async function present<Own extends Kinded = never>(
  ctx: PresentContext,
  result: Result<NoInfer<Own>>,
  own?: Handlers<Own>,
): Promise<void> {
  if (result === undefined) return;
  const p = new Presenter(ctx, { ...HANDLERS, ...own });
  try {
    if (typeof result === 'object' && result !== null && 'kind' in result) await p.write(result);
    else for await (const item of result) await p.write(item);
  } finally {
    p.finish();
  }
}

class Presenter implements Printer {
  readonly json: boolean;
  readonly text: TextMode;
  private status: StatusLines | undefined;
  private readonly markdown = new Map<boolean, Promise<RenderMarkdown>>();

  constructor(
    readonly ctx: PresentContext,
    private readonly handlers: Readonly<Record<string, unknown>>,
  ) {
    this.json = ctx.globals.json === true;
    const tty = ctx.caps.stdoutIsTTY;
    this.text = {
      tty,
      style: ctx.styleOut,
      columns: ctx.caps.columns,
      ...(tty ? { time: timeFormat(ctx.io.env) } : {}),
    };
  }

  renderer(hyperlinks: boolean): Promise<RenderMarkdown> {
    const { columns, colorOut: color } = this.ctx.caps;
    const r = this.markdown.get(hyperlinks) ?? loadMarkdown({ columns, color, hyperlinks });
    this.markdown.set(hyperlinks, r);
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

  async useMarkdown(): Promise<void> {
    if (this.text.tty && !this.json && this.text.markdown === undefined)
      this.text.markdown = await this.renderer(supportsHyperlinks(this.ctx.io.env));
  }

  async write(item: Kinded): Promise<void> {
    await (this.handlers[item.kind] as Handler<typeof item>)(this, item);
  }

  /** Whatever a wait left on stderr (a spinner, status lines) is taken off once the items end. */
  finish(): void {
    this.ctx.progress.stop();
    this.status?.stop();
  }
}
