// A program run with `input` on its stdin and a time bound (the keychain's helper, the `notify` program): one
// still running at the bound is killed, so a hung program never hangs a command. Never rejects.
import { spawn } from 'node:child_process';
import type { Env } from './io.js';

export type ChildEnd =
  | { kind: 'error'; error: NodeJS.ErrnoException }
  | { kind: 'timeout' }
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null; text: string };

/** `text`: what it wrote on `read` (up to about `max` characters); the other output goes nowhere. */
export function runBounded(
  file: string,
  args: readonly string[],
  o: { env: Env; input: string; timeoutMs: number; read: 'stdout' | 'stderr'; max?: number },
): Promise<ChildEnd> {
  return new Promise((resolve) => {
    let text = '';
    let settled = false;
    const done = (end: ChildEnd) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(end);
    };
    let child: ReturnType<typeof spawn>;
    try {
      const pipe = (name: 'stdout' | 'stderr') => (o.read === name ? 'pipe' : 'ignore');
      child = spawn(file, args, { env: { ...o.env }, stdio: ['pipe', pipe('stdout'), pipe('stderr')] });
    } catch (err) {
      // Before the timer: nothing to clear.
      resolve({ kind: 'error', error: err as NodeJS.ErrnoException });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ kind: 'timeout' });
    }, o.timeoutMs);
    child[o.read]?.setEncoding('utf8');
    child[o.read]?.on('data', (c: string) => {
      if (text.length < (o.max ?? Number.POSITIVE_INFINITY)) text += c;
    });
    child.once('error', (error) => done({ kind: 'error', error }));
    child.once('close', (code, signal) => done({ kind: 'exit', code, signal, text }));
    // A program that does not read its input (or died at once) is no failure of ours.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(o.input);
  });
}
