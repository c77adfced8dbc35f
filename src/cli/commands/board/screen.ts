// The board's terminal: the alternate screen and raw keys, taken and given back as a pair (enter/leave), so
// that a command run from the board (chat, tail, the pager) gets the ordinary screen and keyboard.
import { emitKeypressEvents } from 'node:readline';
import type { InStream, OutStream } from '../../../core/index.js';
import type { Key } from '../../chat/input-line.js';

/** The alternate screen on, the cursor hidden; and their undoing. */
const ENTER = '\u001b[?1049h\u001b[?25l\u001b[H\u001b[2J';
const LEAVE = '\u001b[?25h\u001b[?1049l';

export type KeyHandler = (str: string | undefined, key: Key | undefined) => void;

export class BoardScreen {
  private on = false;
  /** The frame on the screen, so that one that did not change is not written again. */
  private shown = '';
  private readonly onKey: KeyHandler = (s, k) => this.keys?.(s, k);
  private readonly onResize = () => {
    this.shown = '';
    this.resized();
  };
  /** Where keys go while the screen is the board's (a command run from it may take them instead). */
  keys: KeyHandler | undefined;

  constructor(
    private readonly stdin: InStream,
    private readonly stdout: OutStream,
    private readonly resized: () => void,
  ) {}

  // A terminal that reports no size (0, as a pseudo-terminal nobody sized does) is taken as 80x24.
  get columns(): number {
    return this.stdout.columns || 80;
  }

  get rows(): number {
    return Math.max(3, this.stdout.rows || 24);
  }

  enter(): void {
    if (this.on) return;
    this.on = true;
    this.shown = '';
    this.stdout.write(ENTER);
    this.listen(true);
    this.stdout.on('resize', this.onResize);
  }

  /** Gives them back as they were; safe to call twice. */
  leave(): void {
    if (!this.on) return;
    this.on = false;
    this.stdout.off('resize', this.onResize);
    this.listen(false);
    this.stdout.write(LEAVE);
  }

  /** Keys without the screen (a tail run from the board still leaves on q). */
  listen(on: boolean): void {
    if (on) emitKeypressEvents(this.stdin);
    this.stdin.setRawMode?.(on);
    if (on) this.stdin.on('keypress', this.onKey).resume();
    else this.stdin.off('keypress', this.onKey).pause();
  }

  /** Writes a frame (one write: nothing half drawn is ever seen), unless it is the one shown. */
  draw(frame: string): void {
    if (!this.on || frame === this.shown) return;
    this.shown = frame;
    this.stdout.write(frame);
  }
}
