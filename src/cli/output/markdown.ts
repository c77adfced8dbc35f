// Markdown for a person at a terminal (loaded only when a reply is rendered); pipes get the text as sent.
import type { Tokens } from 'marked';
import { neutralize } from '../../util/text.js';

/** Renders one message's markdown for the terminal: safe to print, ends with one newline. */
export type RenderMarkdown = (text: string) => string;

type Paint = (s: string) => string;
const identity: Paint = (s) => s;
/** What marked-terminal paints (without colour, each as it is but a quote). */
const PAINTED =
  'code blockquote html heading firstHeading hr listitem table paragraph strong em codespan del link href text';

// SGR (colours, bold…) and OSC 8 hyperlinks: the only sequences the renderer writes and the only ones kept.
const OWN_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- escape sequences are exactly what is matched
  /(\u001b\[[0-9;]*m|\u001b\]8;[^\u0000-\u001f\u007f-\u009f]*;[^\u0000-\u001f\u007f-\u009f]*(?:\u0007|\u001b\\))/;

/** Pure: rendered text with every control character made visible except the renderer's own sequences. */
export function keepOwnSequences(rendered: string): string {
  return rendered
    .split(OWN_SEQUENCE)
    .map((part, i) => (i % 2 === 1 ? part : neutralize(part)))
    .join('');
}

// While marked-terminal wraps the text, a hyperlink is held as short private-use marks (its wrapping counts
// characters, and a whole address inside an escape sequence would push the link onto a line of its own);
// the marks become OSC 8 sequences once the text is laid out. The service's text never holds these marks.
const OPEN = '\ue000';
const MID = '\ue001';
const CLOSE = '\ue002';
const MARKS = /[\ue000-\ue002]/g;
const HELD_LINK = /\ue000(\d+)\ue001/g;

type MarkdownOptions = { columns: number | undefined; color: boolean; hyperlinks: boolean };

/** A quote's lines marked with a bar (marked-terminal indents them). */
function quoteBar(text: string): string {
  return text.replace(/^ {2}/gm, '│ ');
}

/** Wrapped to `columns` (80 when none), `hyperlinks` as OSC 8. Order matters for safety: the service's text is
 * neutralised first, so none of it reaches the renderer as an escape sequence; the renderer styles it; last,
 * only its own kinds of sequence are let through. */
export async function loadMarkdown(o: MarkdownOptions): Promise<RenderMarkdown> {
  const [{ Marked }, { markedTerminal }] = await Promise.all([import('marked'), import('marked-terminal')]);
  // Level 1 (16 colours), as the rest of the output (src/cli/output/style.ts): the decision is already made.
  const c = o.color ? new (await import('chalk')).Chalk({ level: 1 }) : undefined;
  const paint: Record<string, Paint> = c
    ? {
        code: c.yellow,
        blockquote: (q) => c.gray.italic(quoteBar(q)),
        html: c.gray,
        heading: c.green.bold,
        firstHeading: c.magenta.bold.underline,
        strong: c.bold,
        em: c.italic,
        codespan: c.yellow,
        del: c.dim.strikethrough,
        link: c.blue,
        href: c.blue.underline,
      }
    : { blockquote: quoteBar };
  const style = (name: string): Paint => paint[name] ?? identity;
  const tab = '  ';
  const marked = new Marked();
  marked.use(
    markedTerminal({
      ...Object.fromEntries(PAINTED.split(' ').map((name) => [name, style(name)])),
      unescape: true,
      // Without colour a heading keeps its #s, so that it still reads as one.
      showSectionPrefix: !o.color,
      emoji: false,
      width: o.columns !== undefined && o.columns > 0 ? o.columns : 80,
      reflowText: true,
      tab: tab.length,
      tableOptions: o.color
        ? { style: { head: ['bold'], border: ['gray'] } }
        : { style: { head: [], border: [] } },
    }),
  );
  // Two elements are drawn here rather than by marked-terminal: code blocks (it would pick highlighting
  // by what the process's own stdout is, not by this run's decision) and links (the same for hyperlinks).
  marked.use({
    renderer: {
      code(token: Tokens.Code): string {
        const lines = token.text.replace(/\n+$/, '').split('\n');
        return `${lines.map((l) => `${tab}${style('code')(l)}`).join('\n')}\n\n`;
      },
      link(token: Tokens.Link): string {
        const text = this.parser.parseInline(token.tokens);
        const { href } = token;
        // Only web addresses become clickable: a link to file:// or a custom scheme is shown, not armed.
        if (o.hyperlinks && /^https?:\/\/[^\s]+$/i.test(href)) {
          links.push(href);
          return style('link')(`${OPEN}${links.length - 1}${MID}${text || href}${CLOSE}`);
        }
        if (text === '' || text === href) return style('href')(href);
        return `${text} (${style('href')(href)})`;
      },
      // marked-terminal prints a text token's source, so **bold** inside a list item stayed as typed.
      text(token: Tokens.Text | Tokens.Escape): string {
        return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : token.text;
      },
    },
  });
  let links: string[] = [];
  return (text) => {
    links = [];
    const source = neutralize(text).replace(MARKS, '\ufffd');
    const laidOut = keepOwnSequences(marked.parse(source, { async: false }));
    const linked = laidOut
      .replace(HELD_LINK, (_m, n: string) => `\u001b]8;;${links[Number(n)] ?? ''}\u0007`)
      .replaceAll(CLOSE, '\u001b]8;;\u0007');
    return `${linked.replace(/\s+$/, '')}\n`;
  };
}
