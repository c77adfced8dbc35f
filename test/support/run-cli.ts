// Runs the built `agents` binary as a script or CI job would: its own process, pipes for stdio, a clean
// environment with a private config dir, and the exit code, stdout and stderr collected.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
/** The binary built for this test run (test/global-setup.ts), else the checkout's own. */
export const BIN = process.env.AGENTS_TEST_BIN ?? join(ROOT, 'bin', 'agents.js');

/** A fresh, empty config and state dir. */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'agents-e2e-'));
}

/** The parent's environment without any AGENTS_* or colour/CI settings, plus `extra`. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(e)) {
    if (
      k.startsWith('AGENTS_') ||
      ['CI', 'NO_COLOR', 'FORCE_COLOR', 'HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'].includes(k)
    ) {
      delete e[k];
    }
  }
  return { ...e, AGENTS_CONFIG_DIR: tempConfigDir(), ...extra };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. Omit to leave stdin open and idle (like a CI runner's). */
  input?: string | Buffer;
  /** Close stdin at once with nothing written. */
  closeStdin?: boolean;
  /** Kill the process after this long (the test then sees signal SIGKILL): a hang guard. Default 90 s. */
  killAfterMs?: number;
  /** Called once the child has started, e.g. to send it a signal later. */
  onSpawn?: (child: ChildProcessWithoutNullStreams) => void;
  /** Another bin/agents.js than this run's build (the one in the packed tarball), and where it runs. */
  bin?: string;
  /** Another program than `node bin/agents.js` (an installed `agents`, the one-file executable), with its arguments. */
  command?: readonly [string, ...string[]];
  cwd?: string;
}

export function runCli(args: string[], o: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [program, ...before] = o.command ?? [process.execPath, o.bin ?? BIN];
    const child = spawn(program, [...before, ...args], {
      env: o.env ?? cliEnv(),
      cwd: o.cwd ?? ROOT,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const killer = setTimeout(() => child.kill('SIGKILL'), o.killAfterMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
    if (o.input !== undefined) child.stdin.end(o.input);
    else if (o.closeStdin) child.stdin.end();
    o.onSpawn?.(child);
  });
}
