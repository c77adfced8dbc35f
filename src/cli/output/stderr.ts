// stderr: progress, hints, warnings and errors (stdout belongs to the user), written around one spinner.
import type { OutStream } from '../../core/index.js';
import type { Style } from './style.js';

/** Writes to stderr: progress, hints and warnings (silenced by --quiet), and --debug traces. */
export interface Logger {
  info(line: string): void;
  hint(line: string): void;
  warn(line: string): void;
  debug(line: string): void;
  readonly debugEnabled: boolean;
}

/** What a spinner must offer for lines to be written around it. */
export type SpinnerFrame = { readonly isSpinning: boolean; clear(): unknown; render(): unknown };

export class Stderr {
  /** The spinner now drawn on the last line, if any. */
  spinner: SpinnerFrame | undefined;

  constructor(readonly stream: OutStream) {}

  write(text: string): void {
    this.around(() => this.stream.write(text));
  }

  /** Runs `draw` (a write to stderr, or to stdout on the same terminal) with the spinner lifted off the line. */
  around(draw: () => unknown): void {
    const s = this.spinner?.isSpinning ? this.spinner : undefined;
    s?.clear();
    draw();
    s?.render();
  }
}

export function createLogger(o: { quiet: boolean; debug: boolean; stderr: Stderr; style: Style }): Logger {
  const say = (text: string) => {
    if (!o.quiet) o.stderr.write(`${text}\n`);
  };
  return {
    info: say,
    hint: (line) => say(o.style.dim(line)),
    warn: (line) => say(`${o.style.yellow('warning:')} ${line}`),
    debug: (line) => {
      if (o.debug) o.stderr.write(`${o.style.dim(`debug: ${line}`)}\n`);
    },
    debugEnabled: o.debug,
  };
}
