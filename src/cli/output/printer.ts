// What the presenter's handlers (one per item kind) get to print with: the run, its modes, a few helpers.
import type { IO, Message, Progress, SettingName, Settings } from '../../core/index.js';
import { timeFormat } from '../../core/index.js';
import { loadMarkdown, type RenderMarkdown } from './markdown.js';
import { renderNotice, type TextMode } from './render-conversation.js';
import type { StatusLines } from './status-lines.js';
import type { Logger, Stderr } from './stderr.js';
import type { Style } from './style.js';
import { supportsHyperlinks, type TerminalCaps } from './terminal.js';
import { jsonText } from '../../util/text.js';

/** What the presenter needs of the run (the Context of run/context.ts, which is built above this layer). */
export interface PresentContext {
  io: IO;
  globals: { json?: boolean; quiet?: boolean };
  caps: TerminalCaps;
  styleOut: Style;
  styleErr: Style;
  stderr: Stderr;
  log: Logger;
  progress: Progress;
  statusLines(): Promise<StatusLines>;
  settings(need?: readonly SettingName[]): Promise<Settings>;
}

/** The presenter as its handlers see it: one per run of items (present()). */
export class Printer {
  /** --json: JSON documents (or NDJSON) on stdout. */
  readonly json: boolean;
  readonly text: TextMode;
  private status: StatusLines | undefined;
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

  /** The terminal's markdown renderer, with or without hyperlinks (a pager gets none), loaded once. */
  renderer(hyperlinks: boolean): Promise<RenderMarkdown> {
    const { columns, colorOut: color } = this.ctx.caps;
    const r = this.markdown.get(hyperlinks) ?? loadMarkdown({ columns, color, hyperlinks });
    this.markdown.set(hyperlinks, r);
    return r;
  }

  /** Data on stdout; a spinner on the same terminal is put back under it. */
  out(text: string): void {
    this.ctx.stderr.around(() => this.ctx.io.stdout.write(text));
  }

  /** A system notice: never data, so a line on stderr (silenced by --quiet). */
  notice(m: Message): void {
    this.ctx.log.info(renderNotice(m, { tty: this.ctx.caps.stderrIsTTY, style: this.ctx.styleErr }));
  }

  /** The status lines, made on first use and taken off the screen when the run's items end. */
  async statusLines(): Promise<StatusLines> {
    return (this.status ??= await this.ctx.statusLines());
  }

  /** Before message text is shown: sets `text.markdown` on a terminal (not --json), loaded on first use. */
  async useMarkdown(): Promise<void> {
    if (this.text.tty && !this.json && this.text.markdown === undefined)
      this.text.markdown = await this.renderer(supportsHyperlinks(this.ctx.io.env));
  }

  /** Whatever a wait left on stderr (a spinner, status lines) is taken off once the items end. */
  finish(): void {
    this.ctx.progress.stop();
    this.status?.stop();
  }
}

export type Handler<I> = (p: Printer, item: I) => void | Promise<void>;

/** A handler for each kind of the items `I` (a union of `{ kind: … }` records). */
export type Handlers<I extends { kind: string }> = { [K in I['kind']]: Handler<Extract<I, { kind: K }>> };

/** The items a table of handlers prints: what the `Item` union is made of. */
export type ItemsOf<H> = { [K in keyof H]: H[K] extends Handler<infer I> ? I : never }[keyof H];

/** One JSON document and its newline; service text in it cannot drive the terminal it is printed to. */
export const jsonLine = (value: unknown) => `${jsonText(value)}\n`;
