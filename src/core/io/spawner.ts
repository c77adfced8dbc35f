// The real Spawner (src/core/io/io.ts) of a process: the pager through the shell, as git and gh start it, the
// browser through the `open` package (loaded only then), and a program on the terminal (git diff). Used by
// run() alone; tests pass their own.
import { spawn } from 'node:child_process';
import type { Env, Spawner } from './io.js';

/** Starts programs on this process's terminal and desktop. */
export function processSpawner(): Spawner {
  return {
    async pager(command: string, text: string, env: Env): Promise<number | null> {
      return new Promise((resolve, reject) => {
        const child = spawn(command, {
          shell: true,
          stdio: ['pipe', 'inherit', 'inherit'],
          env,
        });
        child.once('error', reject);
        child.once('close', (code) => resolve(code));
        // The person may quit the pager before it has read everything: that is not an error.
        child.stdin.on('error', () => undefined);
        child.stdin.end(text);
      });
    },
    async attached(file, args, o): Promise<number | null> {
      return new Promise((resolve, reject) => {
        const child = spawn(file, [...args], { stdio: 'inherit', cwd: o.cwd, env: o.env });
        child.once('error', reject);
        child.once('close', (code) => resolve(code));
      });
    },
    async browser(url: string): Promise<void> {
      const { default: open } = await import('open');
      await open(url);
    },
  };
}
