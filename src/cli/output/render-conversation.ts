// Pure renderers of the conversation (a follow, a tail, show): for a terminal, or a pipe's text as sent.
import { type Conversation, type Entry, groupTurns, type Message, toolSummary } from '../../core/index.js';
import { flatten, neutralize } from '../../util/text.js';
import { cut } from '../../util/width.js';
import type { RenderMarkdown } from './markdown.js';
import type { Style } from './style.js';
import { localTime, type TimeFormat } from './time.js';

/** Where the text goes: a terminal (`tty`, its width) or a pipe. */
export interface TextMode {
  tty: boolean;
  style: Style;
  /** The terminal's width; undefined on a pipe or when it reports none. */
  columns?: number;
  /** A terminal's times, local and relative; undefined: the service's ISO text as sent. */
  time?: TimeFormat;
  /** A terminal's markdown renderer (loaded when a message is first shown); undefined: plain text. */
  markdown?: RenderMarkdown;
  /** Ids in headings and labels (show --verbose; pipes always have them). */
  verbose?: boolean;
}

export function serviceText(text: string, mode: Pick<TextMode, 'tty'>): string {
  return mode.tty ? neutralize(text) : text;
}

/** Ensures one trailing newline, so consecutive messages and the shell prompt do not run together. */
export function line(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** A message's text for this destination, ending with a newline: markdown on a terminal that has it. */
export function bodyText(text: string, mode: TextMode): string {
  return mode.tty && mode.markdown ? mode.markdown(text) : line(serviceText(text, mode));
}

/** A tool call as one line: `⚙ Bash  npm test`, cut to the terminal's width. */
function toolLine(entry: Entry, mode: TextMode): string {
  if (!mode.tty) return `${toolSummary(entry)}\n`;
  const text = neutralize(toolSummary(entry));
  return `${mode.style.dim(mode.columns === undefined ? text : cut(text, mode.columns))}\n`;
}

function label(e: Entry, style: Style): string {
  if (e.kind === 'user') return style.cyan('you');
  if (e.kind === 'final') return style.green('assistant (final)');
  return style.bold('assistant');
}

/** One entry, under a label on a terminal and in `show`; a final repeating the message shown is a mark. */
export function renderEntry(e: Entry & { repeats?: boolean }, mode: TextMode, labelled = mode.tty): string {
  if (e.kind === 'notice') return '';
  if (e.kind === 'tool') return toolLine(e, mode);
  if (e.kind === 'final' && e.repeats)
    return mode.tty ? `${mode.style.green('✓')} ${mode.style.dim('that was the final reply')}\n` : '';
  if (!labelled) return line(e.message.message);
  const m = e.message;
  const at = m.created_at && mode.time ? localTime(m.created_at, mode.time) : m.created_at;
  const facts = [at, ...(mode.tty && mode.verbose ? [m.id] : [])].filter(Boolean);
  const when = facts.length ? mode.style.dim(` · ${facts.map((f) => serviceText(f, mode)).join(' · ')}`) : '';
  // On a terminal a blank line sets each message apart (markdown has paragraphs of its own).
  const gap = mode.tty && mode.markdown ? '\n' : '';
  return `${label(e, mode.style)}${when}\n${bodyText(m.message, mode)}${gap}`;
}

/** Pure: what the agent is doing, for the spinner, as one harmless line: a tool call, or a message's first. */
export function activityLine(e: Entry): string {
  const call = e.tool ? `${flatten(e.tool.name, 200)} ${flatten(e.tool.input, 1000)}` : e.message.message;
  const first = e.message.message.split('\n').find((l) => l.trim() !== '') ?? '';
  return neutralize(flatten(e.kind === 'tool' ? `⚙ ${call}` : first, 1000));
}

export function renderNotice(m: Message, mode: Pick<TextMode, 'tty' | 'style'>): string {
  return mode.style.dim(`notice: ${serviceText(flatten(m.message, 10_000), mode)}`);
}

/** The heading of a turn (a thread) in `show`; a terminal's leaves the thread id out unless --verbose. */
export function renderTurnHeading(threadId: string | null, index: number, mode: TextMode): string {
  const compact = mode.tty && mode.time !== undefined && mode.verbose !== true;
  const id = compact ? '' : ` · thread ${threadId ?? '(none)'}`;
  return `\n${mode.style.dim(`── turn ${index}${id} ──`)}`;
}

/** Text for one stream: the conversation on stdout, notices on stderr, in the order they are written. */
export type Segment = { to: 'out' | 'err'; text: string };

/** A conversation read whole, as `show` prints it: turns numbered by the session (`threads`), and notices,
 * which are not replies, as stderr lines where they came (never on stdout, never a turn of their own). */
export function renderConversation(
  { entries, notices }: Conversation,
  threads: readonly string[],
  mode: TextMode,
  noticeMode: Pick<TextMode, 'tty' | 'style'>,
  running?: string,
): Segment[] {
  // Each notice goes after the entry stored before it.
  const after = new Map<Message, Message[]>();
  const leading: Message[] = [];
  let i = 0;
  for (const n of notices.map((e) => e.message)) {
    while (i < entries.length && Date.parse(entries[i]!.message.created_at) <= Date.parse(n.created_at))
      i += 1;
    const before = entries[i - 1]?.message;
    if (before === undefined) leading.push(n);
    else after.set(before, [...(after.get(before) ?? []), n]);
  }
  const out: Segment[] = [];
  const say = (to: Segment['to'], text: string) => {
    const last = out.at(-1);
    if (last?.to === to) last.text += text;
    else if (text !== '') out.push({ to, text });
  };
  const noticeLines = (list: readonly Message[] | undefined) => {
    for (const n of list ?? []) say('err', `${renderNotice(n, noticeMode)}\n`);
  };
  noticeLines(leading);
  const byMessage = new Map(entries.map((e) => [e.message, e]));
  const messages = entries.map((e) => e.message);
  for (const turn of groupTurns(messages, threads)) {
    // After a message that ends with a blank line of its own (a terminal's), no second one.
    const heading = renderTurnHeading(turn.threadId, turn.number, mode);
    say('out', `${out.at(-1)?.text.endsWith('\n\n') ? heading.slice(1) : heading}\n`);
    for (const m of turn.messages) {
      const entry = byMessage.get(m);
      if (entry) say('out', renderEntry(entry, mode, true));
      noticeLines(after.get(m));
    }
    // The latest turn without a final reply: the agent is still on it (nothing more to read yet).
    if (running !== undefined && turn.threadId === running) {
      say(
        'out',
        mode.tty
          ? `${mode.style.dim('… still working: no final reply yet')}\n`
          : '(still running: no final reply yet)\n',
      );
    }
  }
  if (entries.length === 0) say('out', `\n${mode.style.dim('(no messages)')}\n`);
  return out;
}
