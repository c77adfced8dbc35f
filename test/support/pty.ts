// Runs a command in a real pseudo-terminal through util-linux `script`, typing into it like a person.
import { spawn } from 'node:child_process';
import { BIN } from './run-cli.js';

export interface PtyRun {
  /** Everything the terminal showed so far (stdout and stderr, as the pty merges them). */
  readonly screen: string;
  /** Resolves once `text` has appeared on the screen. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  type(keys: string): void;
  signal(sig: NodeJS.Signals): void;
  /** The command's exit code (script -e passes it through). */
  exit: Promise<number | null>;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `pipeFrom`: a shell command whose output is the program's standard input (`cat` passes on what is typed,
 * as `cat | agents create` would); stdout and stderr stay the terminal.
 */
export function runInPty(
  args: string[],
  env: NodeJS.ProcessEnv,
  cols = 100,
  rows = 40,
  pipeFrom?: string,
): PtyRun {
  const program = `exec ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}`;
  const command = `stty cols ${cols} rows ${rows}; ${pipeFrom === undefined ? '' : `${pipeFrom} | `}${program}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { TERM: 'xterm-256color', ...env } });
  let screen = '';
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    screen += c;
    waiters.splice(0).forEach((w) => w());
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    get screen() {
      return screen;
    },
    waitFor(text, timeoutMs = 60_000) {
      const seen = () => (typeof text === 'string' ? screen.includes(text) : text.test(screen));
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`not shown: ${String(text)}\n--- screen ---\n${screen}`)),
          timeoutMs,
        );
        const check = () => {
          if (seen()) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
    type(keys) {
      child.stdin.write(keys);
    },
    signal(sig) {
      // The shell exec'd node, so script's child is agents itself: signal the whole pty session.
      child.kill(sig);
    },
    exit,
  };
}
