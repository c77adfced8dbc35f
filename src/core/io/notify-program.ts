// The `notify` setting's program: run without a shell (its arguments passed as the setting names them), the
// turn's result as JSON on its standard input, whether or not a terminal is attached. Its output goes
// nowhere near stdout (stdout is the run's data); its failure is a reason, never an exception.
import { spawn } from 'node:child_process';
import type { Env } from './io.js';

/** How long the program may take before it is stopped (tests tune it down). */
export const NOTIFY_TIMEOUT_MS = 10_000;

/**
 * Runs `argv` with `input` on its stdin; resolves to undefined when it exited 0 in time, else to why not
 * (not found, timed out, the exit code or signal, the first line it wrote on stderr).
 */
export async function runNotifyProgram(
  argv: readonly string[],
  input: string,
  o: { env: Env; timeoutMs?: number },
): Promise<string | undefined> {
  const [file = '', ...args] = argv;
  const timeoutMs = o.timeoutMs ?? NOTIFY_TIMEOUT_MS;
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
      child = spawn(file, args, { stdio: ['pipe', 'ignore', 'pipe'], env: { ...o.env }, shell: false });
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
