// git run as a program: an argument array (never a shell, so nothing from a pull request's address or a
// branch name is ever read as shell syntax), in the run's directory, its output captured.
import { execFile } from 'node:child_process';
import { CliError, type Env, UsageError } from '../../core/index.js';

/** What a git command left: its exit code, stdout (bytes: a diff is not always UTF-8) and stderr. */
export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Where and how git runs: the run's directory, environment and stop signal. */
export interface GitPlace {
  cwd: string | undefined;
  env: Env;
  signal: AbortSignal;
}

/** A diff may be long; past this, git's output is cut off (and the command fails) rather than filling memory. */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

/**
 * Runs `git args` and resolves to what it left, whatever its exit code. git missing is a usage error; the
 * run's signal stops it. Git never prompts on this process's stdin (it reads a password from /dev/tty).
 */
export async function git(place: GitPlace, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd: place.cwd,
        env: { ...place.env, GIT_TERMINAL_PROMPT: place.env.GIT_TERMINAL_PROMPT ?? '0' },
        encoding: 'buffer',
        maxBuffer: MAX_OUTPUT_BYTES,
        signal: place.signal,
      },
      (err, stdout, stderr) => {
        // execFile's error: `code` is the exit code once git ran, an errno text when it could not start.
        const code: unknown = (err as { code?: unknown } | null)?.code;
        if (err === null || typeof code === 'number') {
          resolve({ code: typeof code === 'number' ? code : 0, stdout, stderr: stderr.toString('utf8') });
        } else if (code === 'ENOENT') {
          reject(new UsageError('git was not found', 'install git, or put it on the PATH'));
        } else {
          // Stopped by the run's signal: the reason it gives (Ctrl-C is exit 130), as a wait does.
          reject(err.name === 'AbortError' && place.signal.aborted ? (place.signal.reason as Error) : err);
        }
      },
    );
  });
}

/** git's last line of stderr, for a message (its first lines are often "From …" progress). */
export function gitSays(r: GitResult): string {
  const lines = r.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.find((l) => /^(fatal|error):/.test(l)) ?? lines.at(-1) ?? `exit code ${r.code}`;
}

/** Runs `git args`; its stdout as text (trimmed) when it succeeds, else an error with git's words (exit 1). */
export async function gitText(place: GitPlace, args: readonly string[]): Promise<string> {
  const r = await git(place, args);
  if (r.code !== 0) throw new CliError(`git ${args[0] ?? ''} failed: ${gitSays(r)}`);
  return r.stdout.toString('utf8').trim();
}
