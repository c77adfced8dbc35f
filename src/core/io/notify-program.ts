// The `notify` setting's program: no shell, the turn's result as JSON on its stdin. Its output goes nowhere
// near stdout (the run's data); its failure is a reason, never an exception.
import { spawn } from 'node:child_process';
import type { Env } from './io.js';

/**
 * Runs `argv` with `input` on its stdin; resolves to undefined when it exited 0 within `timeoutMs` (10 s),
 * else to why not (not found, timed out, the exit code or signal, the first line it wrote on stderr).
 */
export async function runNotifyProgram(
  argv: readonly string[],
  input: string,
  { env, timeoutMs = 10_000 }: { env: Env; timeoutMs?: number },
): Promise<string | undefined> {
  const [file = '', ...args] = argv;
  return new Promise((resolve) => {
    let settled = false;
    const done = (why: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(why);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, args, { stdio: ['pipe', 'ignore', 'pipe'], env: { ...env }, shell: false });
    } catch (err) {
      resolve(err instanceof Error ? err.message : String(err));
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(`it did not finish within ${timeoutMs / 1000} s and was stopped`);
    }, timeoutMs);
    let errText = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (errText.length < 2000) errText += chunk.toString('utf8');
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      done(err.code === 'ENOENT' ? 'it was not found' : err.message);
    });
    child.once('close', (code, signal) => {
      if (code === 0) return done(undefined);
      const said = errText.trim().split('\n')[0];
      const how = code === null ? `it was killed by ${signal ?? 'a signal'}` : `it exited with ${code}`;
      done(said ? `${how}: ${said}` : how);
    });
    // A program that does not read its input is no failure of ours.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}
