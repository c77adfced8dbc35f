// stderr, the one place progress, hints, warnings and errors are written (zx's habit: stdout belongs to the
// user). A spinner shares the line with them: a line written while it spins is put above it, never under
// its next frame.
import type { OutStream } from '../../core/io/io.js';
import type { Style } from './style.js';

/** Writes progress, hints, warnings and errors to stderr. */
export interface Logger {
  /** Progress and summaries; silenced by --quiet. */
  info(line: string): void;
  /** Next-step hints; silenced by --quiet. */
  hint(line: string): void;
  /** Warnings; silenced by --quiet. */
  warn(line: string): void;
  /** Request traces: shown only with --debug. */
  debug(line: string): void;
  readonly debugEnabled: boolean;
}

/** What a spinner must offer for lines to be written around it. */
export interface SpinnerFrame {
  readonly isSpinning: boolean;
  clear(): unknown;
  render(): unknown;
}

/** stderr with room for one spinner. */
export class Stderr {
  private spinner: SpinnerFrame | undefined;

  constructor(readonly stream: OutStream) {}

  /** The spinner currently drawn on the last line, if any. */
  attach(spinner: SpinnerFrame | undefined): void {
    this.spinner = spinner;
  }

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

export interface LoggerOptions {
  quiet: boolean;
  debug: boolean;
  stderr: Stderr;
  style: Style;
}

export function createLogger(o: LoggerOptions): Logger {
  const write = (text: string) => o.stderr.write(text);
  return {
    info: (line) => {
      if (!o.quiet) write(`${line}\n`);
    },
    hint: (line) => {
      if (!o.quiet) write(`${o.style.dim(line)}\n`);
    },
    warn: (line) => {
      if (!o.quiet) write(`${o.style.yellow('warning:')} ${line}\n`);
    },
    debug: (line) => {
      if (o.debug) write(`${o.style.dim(`debug: ${line}`)}\n`);
    },
    debugEnabled: o.debug,
  };
}
