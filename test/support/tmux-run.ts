// Runs the built binary in a tmux pane and reads the screen back as a person would see it
// (capture-pane): the test for a program that draws on the terminal (agents chat: a status line and an
// input line under a conversation that scrolls). Each run has its own tmux server (socket) and config,
// so runs never see each other, and ends with kill-server.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BIN } from './run-cli.js';

const exec = promisify(execFile);

// remain-on-exit is not relied on (a pane that dies may not have drawn its last output yet): the shell
// prints the exit code and stays.
const CONFIG = `set -g status off
set -g history-limit 10000
set -g set-clipboard on
`;

export interface TmuxRun {
  /** The screen and its scrollback: `joined` undoes tmux's wrapping of long lines, `escapes` keeps SGR. */
  screen(o?: { joined?: boolean; escapes?: boolean }): Promise<string>;
  /** Resolves with the (joined) screen once `text` is on it; rejects with the screen after `ms`. */
  waitFor(text: string | RegExp, ms?: number): Promise<string>;
  /** Types text, literally. */
  type(text: string): Promise<void>;
  /** Presses keys by tmux name: Enter, C-c, C-d, M-Enter, BSpace… */
  press(...keys: string[]): Promise<void>;
  /** Pastes text as a terminal does (bracketed, when the program asked for it). */
  paste(text: string): Promise<void>;
  /** What the program put on the clipboard (the tmux buffer an OSC 52 write makes). */
  clipboard(): Promise<string>;
  /** Resizes the window, as a person dragging the terminal's edge. */
  resize(columns: number, rows?: number): Promise<void>;
  /** The program's exit code, once it has exited. */
  exitCode(ms?: number): Promise<number>;
  close(): Promise<void>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Starts `agents ARGS` in a `columns`×`rows` pane with `env` (TERM is tmux's own); `before`, a shell
 * command, runs first in the same pane (output already on the screen when the program starts).
 */
export async function runInTmux(
  args: string[],
  env: NodeJS.ProcessEnv,
  size: { columns: number; rows: number } = { columns: 80, rows: 24 },
  before?: string,
): Promise<TmuxRun> {
  const dir = mkdtempSync(join(tmpdir(), 'agents-tmux-'));
  const socket = join(dir, 'sock');
  const config = join(dir, 'tmux.conf');
  writeFileSync(config, CONFIG);
  const tmux = async (...a: string[]) =>
    (await exec('tmux', ['-S', socket, ...a], { env, encoding: 'utf8' })).stdout;
  // The pane starts idle and gets the program once its size is final: a program that draws at start
  // must not see the pane resized under it.
  await tmux(
    '-f',
    config,
    'new-session',
    '-d',
    '-x',
    `${size.columns}`,
    '-y',
    `${size.rows}`,
    '-s',
    't',
    'cat',
  );
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const prelude = before === undefined ? '' : `${before}; `;
  await tmux('respawn-pane', '-k', '-t', 't', `${prelude}${command}; echo "[exit $?]"; exec sleep 3600`);

  const screen: TmuxRun['screen'] = async (o = {}) => {
    const flags = ['-p', '-t', 't', '-S', '-', ...(o.joined ? ['-J'] : []), ...(o.escapes ? ['-e'] : [])];
    return tmux('capture-pane', ...flags);
  };
  const waitFor = async (text: string | RegExp, ms = 60_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const s = await screen({ joined: true });
      if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
      if (Date.now() > deadline) throw new Error(`not on the screen: ${String(text)}\n--- screen ---\n${s}`);
      await new Promise((r) => setTimeout(r, 40));
    }
  };
  return {
    screen,
    waitFor,
    type: async (text) => void (await tmux('send-keys', '-t', 't', '-l', text)),
    press: async (...keys) => void (await tmux('send-keys', '-t', 't', ...keys)),
    paste: async (text) => {
      await tmux('set-buffer', '-b', 'paste', text);
      await tmux('paste-buffer', '-p', '-d', '-b', 'paste', '-t', 't');
    },
    clipboard: async () => tmux('show-buffer'),
    resize: async (columns, rows = size.rows) =>
      void (await tmux('resize-window', '-t', 't', '-x', `${columns}`, '-y', `${rows}`)),
    exitCode: async (ms) => Number(/\[exit (\d+)\]/.exec(await waitFor(/\[exit \d+\]/, ms))?.[1]),
    close: async () => {
      await tmux('kill-server').catch(() => undefined);
    },
  };
}
