// The real Spawner (io.ts): the pager through the shell, as git and gh start it, the browser through `open`.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Spawner } from './io.js';

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });

/** Starts programs on this process's terminal and desktop. */
export function processSpawner(): Spawner {
  return {
    async pager(command, text, env) {
      const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env });
      // The person may quit the pager before it has read everything: that is not an error.
      child.stdin.on('error', () => undefined);
      child.stdin.end(text);
      return exitOf(child);
    },
    attached: async (file, args, o) =>
      exitOf(spawn(file, [...args], { stdio: 'inherit', cwd: o.cwd, env: o.env })),
    async browser(url) {
      const { default: open } = await import('open');
      await open(url);
    },
  };
}
