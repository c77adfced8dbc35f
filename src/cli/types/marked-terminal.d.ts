// marked-terminal 7 ships no types of its own (and @types/marked-terminal describes version 6, whose
// markedTerminal returned a Renderer): the part of its interface this program uses.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';

  type Paint = (text: string) => string;
  type Block = 'code' | 'blockquote' | 'html' | 'heading' | 'firstHeading' | 'hr' | 'listitem' | 'table';
  type Inline = 'paragraph' | 'strong' | 'em' | 'codespan' | 'del' | 'link' | 'href' | 'text';
  /** Options of the terminal renderer: a style function per element, and layout. */
  export interface TerminalRendererOptions extends Partial<Record<Block | Inline, Paint>> {
    unescape?: boolean;
    emoji?: boolean;
    width?: number;
    showSectionPrefix?: boolean;
    reflowText?: boolean;
    tab?: number | string;
    tableOptions?: Record<string, unknown>;
  }

  export function markedTerminal(
    options?: TerminalRendererOptions,
    highlightOptions?: object,
  ): MarkedExtension;
}
