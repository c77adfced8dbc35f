// The terminal of `agents chat`: raw keys, the footer (footer.ts) at the bottom, the conversation above it.
// It knows no sessions: it reports lines typed and the wish to leave, and answers one yes/no key.
import { emitKeypressEvents } from 'node:readline';
import type { InStream, OutStream } from '../../core/index.js';
import type { Style } from '../output/style.js';
import { Footer, layoutFooter } from './footer.js';
import { isText, LineEditor, type Key } from './input-line.js';

/** Bracketed paste: the terminal marks pasted text, so a pasted line break does not send. */
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';
/** Spinner frames per second while the agent works. */
const TICK_MS = 150;

export interface ChatTerminalOptions {
  stdin: InStream;
  stdout: OutStream;
  /** Notices, notes and warnings. */
  stderr: OutStream;
  /** Where the footer is drawn (stderr when it is a terminal, else stdout). */
  screen: OutStream;
  style: Style;
  /** The status line for this width and spinner frame (cut and styled). */
  status(columns: number | undefined, frame: number): string;
  /** Enter on a line that is not blank. */
  onLine(text: string): void;
  /** Ctrl-C or Ctrl-D on an empty line, or the end of input. */
  onLeave(how: 'interrupt' | 'eof'): void;
  /** Tab: the completed line, if any. */
  complete?(line: string): string | undefined;
}

export class ChatTerminal {
  readonly editor = new LineEditor();
  private readonly footer: Footer;
  private started = false;
  private pasting = false;
  /** The previous pasted key was a carriage return (a pasted CRLF is one line break). */
  private pastedCr = false;
  /** An Enter whose fate waits for the rest of its chunk of input (see key). */
  private pendingEnter = false;
  private drawQueued = false;
  private answer: ((yes: boolean) => void) | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private frame = 0;
  /** Whether the spinner should run (kept while stopped, applied on start). */
  private tick = false;
  private readonly onKey = (str: string | undefined, key: Key | undefined) => this.key(str, key);
  private readonly onResize = () => {
    this.footer.resized(this.o.screen.columns);
    this.draw();
  };
  private readonly onEnd = () => this.o.onLeave('eof');

  constructor(private readonly o: ChatTerminalOptions) {
    this.footer = new Footer(o.screen);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    const { stdin } = this.o;
    emitKeypressEvents(stdin);
    stdin.setRawMode?.(true);
    stdin.on('keypress', this.onKey);
    stdin.on('end', this.onEnd);
    stdin.resume();
    this.o.screen.on('resize', this.onResize);
    this.o.screen.write(PASTE_ON);
    this.ticking(this.tick);
    this.draw();
  }

  /** Gives the terminal back as it was: footer wiped, keys cooked, input released. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
    this.footer.clear();
    this.o.screen.write(PASTE_OFF);
    this.o.screen.off('resize', this.onResize);
    const { stdin } = this.o;
    stdin.off('keypress', this.onKey);
    stdin.off('end', this.onEnd);
    stdin.setRawMode?.(false);
    stdin.pause();
    this.resolve(false);
  }

  /** Text above the footer: the conversation on stdout, notes and notices on stderr. */
  print(text: string, to: 'out' | 'err' = 'out'): void {
    if (text === '') return;
    this.footer.clear();
    (to === 'out' ? this.o.stdout : this.o.stderr).write(text);
    this.draw();
  }

  /** Bytes for the terminal itself that move nothing (an OSC 52 clipboard write). */
  control(sequence: string): void {
    this.o.screen.write(sequence);
  }

  draw(): void {
    if (!this.started) return;
    const { screen } = this.o;
    this.footer.draw(
      layoutFooter({
        status: this.o.status(screen.columns, this.frame),
        text: this.editor.graphemes,
        cursor: this.editor.cursor,
        prompt: { text: this.o.style.cyan('› '), width: 2 },
        columns: screen.columns,
        rows: screen.rows,
      }),
    );
  }

  /** Animates the status line's spinner (and its clock) while the agent works. */
  ticking(on: boolean): void {
    this.tick = on;
    if (on && this.ticker === undefined && this.started) {
      this.ticker = setInterval(() => {
        this.frame += 1;
        this.draw();
      }, TICK_MS);
      this.ticker.unref();
    } else if (!on && this.ticker !== undefined) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /** Waits for one key: true for y. The status line says what is asked. */
  confirm(): Promise<boolean> {
    this.resolve(false);
    return new Promise((resolve) => {
      this.answer = resolve;
      this.draw();
    });
  }

  resolve(yes: boolean): void {
    const answer = this.answer;
    this.answer = undefined;
    answer?.(yes);
  }

  private key(str: string | undefined, key: Key | undefined): void {
    const paste = key?.name === 'paste-start' || key?.name === 'paste-end';
    // Any key answers; only y means yes. A paste cannot answer.
    if (this.answer !== undefined) {
      if (!paste) this.resolve(str === 'y' || str === 'Y');
      return;
    }
    if (paste) {
      this.pasting = key?.name === 'paste-start';
      this.pastedCr = false;
      if (!this.pasting) this.draw();
      return;
    }
    if (this.pasting) return this.paste(str, key);
    // An Enter followed, in the same chunk of input, by more keys was pasted by a terminal without
    // bracketed paste: it is a line break, not "send".
    if (this.pendingEnter) {
      // CR LF is one Enter, still to be decided.
      if (key?.name === 'enter' && !key.ctrl && !key.meta) return;
      this.pendingEnter = false;
      this.editor.insert('\n');
    }
    const result = this.editor.press(str, key);
    if (result === 'enter') {
      this.pendingEnter = true;
      setImmediate(() => this.enter());
    } else if (result === 'interrupt' || result === 'eof') this.o.onLeave(result);
    else {
      const done = result === 'complete' ? this.o.complete?.(this.editor.text) : undefined;
      if (done !== undefined) this.editor.set(done);
      if (result === 'repaint') this.footer.clear();
      this.draw();
    }
  }

  private enter(): void {
    if (!this.pendingEnter) return;
    this.pendingEnter = false;
    const line = this.editor.enter();
    if (line !== undefined && line.trim() !== '') this.o.onLine(line);
    this.draw();
  }

  private paste(str: string | undefined, key: Key | undefined): void {
    const name = key?.name;
    if (name === 'return' || name === 'enter') {
      // CRLF is one line break.
      if (!(name === 'enter' && this.pastedCr)) this.editor.insert('\n');
      this.pastedCr = name === 'return';
    } else {
      this.pastedCr = false;
      if (name === 'tab') this.editor.insert('\t');
      else if (isText(str, key)) this.editor.insert(str);
    }
    // One draw for a whole paste, not one per character.
    if (!this.drawQueued) {
      this.drawQueued = true;
      setImmediate(() => {
        this.drawQueued = false;
        this.draw();
      });
    }
  }
}
