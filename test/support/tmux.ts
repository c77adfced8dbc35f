// A real terminal that can be resized and read back: tmux (installed by .ci/run where it is missing), its
// server private to the test (its own socket), the built binary run in a window of the given size.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A tmux window running one shell command. */
export interface TmuxWindow {
  /** What the window shows now (plain text, no escapes), the lines joined by newlines. */
  capture(): string;
  resize(cols: number, rows?: number): void;
  /** Resolves once `text` appears on the screen. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the command's exit status once it has ended. */
  exited(timeoutMs?: number): Promise<number>;
  kill(): void;
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Starts `command` (a shell command line) in a new tmux server and window of `cols` × `rows`. */
export function tmux(command: string, env: NodeJS.ProcessEnv, cols = 80, rows = 24): TmuxWindow {
  const socket = join(mkdtempSync(join(tmpdir(), 'agents-tmux-')), 'sock');
  const run = (...args: string[]) => spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', env });
  const exports = Object.entries(env)
    .filter(([k, v]) => v !== undefined && /^(AGENTS_|NO_COLOR|FORCE_COLOR|XDG_|HOME$|PATH$)/.test(k))
    .map(([k, v]) => `export ${k}=${quote(v ?? '')};`)
    .join(' ');
  const started = run(
    'new-session',
    '-d',
    '-x',
    String(cols),
    '-y',
    String(rows),
    // The marker says the command ended, and with what status; the sleep keeps the screen to read.
    `${exports} ${command}; echo __EXITED__$?; sleep 60`,
  );
  if (started.status !== 0) throw new Error(`tmux did not start: ${started.stderr}`);
  const capture = () => run('capture-pane', '-p', '-J').stdout;
  const until = async (check: () => boolean, what: string, timeoutMs: number) => {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > end) throw new Error(`${what}\n--- screen ---\n${capture()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    capture,
    resize(c, r = rows) {
      run('resize-window', '-x', String(c), '-y', String(r));
    },
    waitFor(text, timeoutMs = 15_000) {
      const seen = () => (typeof text === 'string' ? capture().includes(text) : text.test(capture()));
      return until(seen, `not shown: ${String(text)}`, timeoutMs);
    },
    async exited(timeoutMs = 15_000) {
      await until(() => /__EXITED__\d+/.test(capture()), 'the command did not exit', timeoutMs);
      return Number(/__EXITED__(\d+)/.exec(capture())?.[1]);
    },
    kill() {
      run('kill-server');
    },
  };
}
