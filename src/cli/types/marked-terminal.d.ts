// marked-terminal 7 ships no types of its own (and @types/marked-terminal describes version 6, whose
// markedTerminal returned a Renderer): the part of its interface this program uses.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';

  type Paint = (text: string) => string;
  /** Options of the terminal renderer: a style function per element, and layout. */
  export interface TerminalRendererOptions {
    code?: Paint;
    blockquote?: Paint;
    html?: Paint;
    heading?: Paint;
    firstHeading?: Paint;
    hr?: Paint;
    listitem?: Paint;
    table?: Paint;
    paragraph?: Paint;
    strong?: Paint;
    em?: Paint;
    codespan?: Paint;
    del?: Paint;
    link?: Paint;
    href?: Paint;
    text?: Paint;
    unescape?: boolean;
    emoji?: boolean;
    width?: number;
    showSectionPrefix?: boolean;
    reflowText?: boolean;
    tab?: number | string;
    tableOptions?: Record<string, unknown>;
  }

  /** The renderer as a marked extension (`new Marked().use(markedTerminal(options))`). */
  export function markedTerminal(
    options?: TerminalRendererOptions,
    highlightOptions?: object,
  ): MarkedExtension;
}
