// Everything that is not data goes to stderr through here, so stdout belongs to the user (zx's habit).

/** Writes progress, hints, warnings and errors to stderr. */
export interface Logger {
  /** Progress and summaries; silenced by --quiet. */
  info(line: string): void;
  /** Next-step hints; silenced by --quiet. */
  hint(line: string): void;
  /** Warnings; silenced by --quiet. */
  warn(line: string): void;
  /** Errors: always shown. */
  error(line: string): void;
  /** Request traces: shown only with --debug. */
  debug(line: string): void;
  readonly debugEnabled: boolean;
}

export interface LoggerOptions {
  quiet: boolean;
  debug: boolean;
  write?: (text: string) => void;
  /** Styling functions (chalk's, or identity when colour is off). */
  style?: { dim(s: string): string; yellow(s: string): string; red(s: string): string };
}

const plain = { dim: (s: string) => s, yellow: (s: string) => s, red: (s: string) => s };

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  const style = options.style ?? plain;
  return {
    info: (line) => {
      if (!options.quiet) write(`${line}\n`);
    },
    hint: (line) => {
      if (!options.quiet) write(`${style.dim(line)}\n`);
    },
    warn: (line) => {
      if (!options.quiet) write(`${style.yellow('warning:')} ${line}\n`);
    },
    error: (line) => write(`${style.red('error:')} ${line}\n`),
    debug: (line) => {
      if (options.debug) write(`${style.dim(`debug: ${line}`)}\n`);
    },
    debugEnabled: options.debug,
  };
}
