// What every command receives: the global flags, the terminal's capabilities, a logger, stdout, and a
// signal that aborts on Ctrl-C / SIGTERM. Built once per run, only when a command actually runs.
import { detectTerminal, type TerminalCaps } from './output/terminal.js';
import { createLogger, type Logger } from './output/log.js';

/** Global options declared on the program in cli.ts. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  quiet?: boolean;
  /** commander's negation of `--no-color`: false when the flag was given. */
  color?: boolean;
  debug?: boolean;
}

/** The run's environment as a command sees it. */
export interface Context {
  globals: GlobalOptions;
  env: NodeJS.ProcessEnv;
  caps: TerminalCaps;
  log: Logger;
  /** Aborted on SIGINT (reason 'SIGINT') or SIGTERM (reason 'SIGTERM'). */
  signal: AbortSignal;
  /** Writes data to stdout (message text, ids, JSON). Nothing else goes there. */
  out: (text: string) => void;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface ContextInputs {
  globals: GlobalOptions;
  env?: NodeJS.ProcessEnv;
  signal: AbortSignal;
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
}

export function debugFromEnv(env: NodeJS.ProcessEnv): boolean {
  const v = env.AGENTS_DEBUG;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

export async function createContext(inputs: ContextInputs): Promise<Context> {
  const env = inputs.env ?? process.env;
  const stdin = inputs.stdin ?? process.stdin;
  const stdout = inputs.stdout ?? process.stdout;
  const stderr = inputs.stderr ?? process.stderr;
  const quiet = inputs.globals.quiet === true;
  const caps = detectTerminal({
    env,
    stdinIsTTY: stdin.isTTY === true,
    stdoutIsTTY: stdout.isTTY === true,
    stderrIsTTY: stderr.isTTY === true,
    stderrColumns: (stderr as { columns?: number }).columns,
    colorFlag: inputs.globals.color !== false,
    quiet,
  });
  let style: Parameters<typeof createLogger>[0]['style'];
  if (caps.color) {
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    style = { dim: (s) => chalk.dim(s), yellow: (s) => chalk.yellow(s), red: (s) => chalk.red(s) };
  }
  const log = createLogger({
    quiet,
    debug: inputs.globals.debug === true || debugFromEnv(env),
    write: (text) => void stderr.write(text),
    style,
  });
  return {
    globals: inputs.globals,
    env,
    caps,
    log,
    signal: inputs.signal,
    out: (text) => void stdout.write(text),
    stdin,
  };
}
