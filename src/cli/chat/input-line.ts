// The input line of `agents chat`: text, cursor, history and what each key does; pure (chat-terminal.ts reads
// keys and draws). Text is kept as grapheme clusters: the cursor never lands inside an emoji or an accent.
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** A key as node:readline's emitKeypressEvents reports it. */
export interface Key {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/**
 * What a key asks of the chat: 'edit' (draw the line again), 'enter' (see LineEditor#enter), 'interrupt'
 * and 'eof' (Ctrl-C, Ctrl-D on an empty line), 'repaint' (Ctrl-L), 'complete' (Tab).
 */
export type KeyResult = 'edit' | 'enter' | 'interrupt' | 'eof' | 'repaint' | 'complete';

/** A key (its name, after `ctrl-` or `meta-`) -> what it does to the editor; no result means 'edit'. */
type KeyTable = Record<string, (e: LineEditor) => KeyResult | void>;

/** A table's own action for a key: a name such as `constructor` is no key of ours. */
const action = (table: KeyTable, name: string) => (Object.hasOwn(table, name) ? table[name] : undefined);

const isWordChar = (g: string) => /[\p{L}\p{N}_]/u.test(g);
// eslint-disable-next-line no-control-regex -- control characters are what a printable key must not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether a key inserts `str` as text. */
export function isText(str: string | undefined, key: Key | undefined): str is string {
  if (str === undefined || str === '' || key?.ctrl || key?.meta) return false;
  return !CONTROL.test(str);
}

export class LineEditor {
  private chars: string[] = [];
  /** Index into the graphemes: 0 is before the first. */
  cursor = 0;
  private readonly history: string[] = [];
  /** While going through the history with Up/Down: the entry shown, and what was typed before. */
  private browsing: number | undefined;
  private draft = '';

  get text(): string {
    return this.chars.join('');
  }

  get graphemes(): readonly string[] {
    return this.chars;
  }

  get empty(): boolean {
    return this.chars.length === 0;
  }

  /** Replaces the whole text, the cursor at its end. */
  set(text: string): void {
    this.chars = graphemes(text);
    this.cursor = this.chars.length;
  }

  clear(): void {
    this.set('');
    this.browsing = undefined;
  }

  insert(text: string): void {
    const add = graphemes(text);
    this.chars.splice(this.cursor, 0, ...add);
    this.cursor += add.length;
  }

  /** Keeps a sent line for Up/Down (not twice in a row). */
  remember(text: string): void {
    if (this.history.at(-1) !== text) this.history.push(text);
    this.browsing = undefined;
  }

  /**
   * Enter. A line that ends in a backslash at the cursor is continued: the backslash becomes a line
   * break, and the result is undefined. Otherwise the text to send (the line is then cleared).
   */
  enter(): string | undefined {
    if (this.cursor === this.chars.length && this.chars.at(-1) === '\\') {
      this.chars[this.chars.length - 1] = '\n';
      return undefined;
    }
    const text = this.text;
    this.clear();
    return text;
  }

  /** Start and end (exclusive) of the logical line (between line breaks) the cursor is on. */
  private lineBounds(at = this.cursor): [number, number] {
    let start = at;
    while (start > 0 && this.chars[start - 1] !== '\n') start -= 1;
    let end = at;
    while (end < this.chars.length && this.chars[end] !== '\n') end += 1;
    return [start, end];
  }

  /** Where the word before (-1) or after (1) the cursor starts or ends. */
  private word(dir: -1 | 1): number {
    let i = this.cursor;
    const next = () => this.chars[dir < 0 ? i - 1 : i];
    while (next() !== undefined && !isWordChar(next()!)) i += dir;
    while (next() !== undefined && isWordChar(next()!)) i += dir;
    return i;
  }

  private cut(from: number, to: number): void {
    if (to <= from) return;
    this.chars.splice(from, to - from);
    this.cursor = from;
  }

  /** Up (-1) or Down (1): that line of a multi-line text, else that entry of the history (past the last: the draft). */
  private vertical(dir: -1 | 1): void {
    const [start, end] = this.lineBounds();
    if (dir < 0 ? start > 0 : end < this.chars.length) {
      const [from, to] = this.lineBounds(dir < 0 ? start - 1 : end + 1);
      this.cursor = Math.min(from + this.cursor - start, to);
      return;
    }
    if (this.browsing === undefined) {
      if (dir > 0 || this.history.length === 0) return;
      this.draft = this.text;
      this.browsing = this.history.length;
    } else if (dir < 0 && this.browsing === 0) return;
    this.browsing += dir;
    const entry = this.history[this.browsing];
    if (entry === undefined) this.browsing = undefined;
    this.set(entry ?? this.draft);
  }

  /** Applies an editing key. Keys that are not the editor's are reported for the chat to act on. */
  press(str: string | undefined, key: Key | undefined): KeyResult {
    const k = key ?? {};
    // A modified key the editor has no use for does nothing (isText: it is never typed as text).
    const act = action(LineEditor.KEYS, `${k.ctrl ? 'ctrl-' : k.meta ? 'meta-' : ''}${k.name ?? ''}`);
    if (act) return act(this) ?? 'edit';
    if (isText(str, k)) this.insert(str);
    return 'edit';
  }

  /** What each key does: Ctrl with a key as readline's emacs bindings have it, Alt (meta) its word moves. */
  private static readonly KEYS: KeyTable = {
    'ctrl-c': (e) => (e.empty ? 'interrupt' : e.clear()),
    'ctrl-d': (e) => (e.empty ? 'eof' : e.cut(e.cursor, e.cursor + 1)),
    'ctrl-a': (e) => void (e.cursor = e.lineBounds()[0]),
    'ctrl-e': (e) => void (e.cursor = e.lineBounds()[1]),
    'ctrl-b': (e) => void (e.cursor = Math.max(0, e.cursor - 1)),
    'ctrl-f': (e) => void (e.cursor = Math.min(e.chars.length, e.cursor + 1)),
    'ctrl-u': (e) => e.cut(e.lineBounds()[0], e.cursor),
    'ctrl-k': (e) => e.cut(e.cursor, e.lineBounds()[1]),
    'ctrl-w': (e) => e.cut(e.word(-1), e.cursor),
    'ctrl-backspace': (e) => e.cut(e.word(-1), e.cursor),
    'ctrl-h': (e) => e.cut(Math.max(0, e.cursor - 1), e.cursor),
    'ctrl-l': () => 'repaint',
    'ctrl-left': (e) => void (e.cursor = e.word(-1)),
    'ctrl-right': (e) => void (e.cursor = e.word(1)),
    'ctrl-p': (e) => e.vertical(-1),
    'ctrl-n': (e) => e.vertical(1),
    'ctrl-delete': (e) => e.cut(e.cursor, e.word(1)),
    'meta-return': (e) => e.insert('\n'),
    'meta-enter': (e) => e.insert('\n'),
    'meta-b': (e) => void (e.cursor = e.word(-1)),
    'meta-left': (e) => void (e.cursor = e.word(-1)),
    'meta-f': (e) => void (e.cursor = e.word(1)),
    'meta-right': (e) => void (e.cursor = e.word(1)),
    'meta-d': (e) => e.cut(e.cursor, e.word(1)),
    'meta-backspace': (e) => e.cut(e.word(-1), e.cursor),
    return: () => 'enter',
    // Ctrl-J, a line feed: a new line, as in many editors.
    enter: (e) => e.insert('\n'),
    backspace: (e) => e.cut(Math.max(0, e.cursor - 1), e.cursor),
    delete: (e) => e.cut(e.cursor, e.cursor + 1),
    left: (e) => void (e.cursor = Math.max(0, e.cursor - 1)),
    right: (e) => void (e.cursor = Math.min(e.chars.length, e.cursor + 1)),
    home: (e) => void (e.cursor = e.lineBounds()[0]),
    end: (e) => void (e.cursor = e.lineBounds()[1]),
    up: (e) => e.vertical(-1),
    down: (e) => e.vertical(1),
    tab: () => 'complete',
  };
}
