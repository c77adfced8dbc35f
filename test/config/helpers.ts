// Shared by the config tests: a fresh config dir per test, an in-process Context whose streams are captured,
// and a runner for the built binary (asynchronous, so a server in this process can answer it).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createContext, type Context, type GlobalOptions } from '../../src/context.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin', 'agents.js');

/** A new, empty config directory. */
export function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'agents-config-test-'));
}

/** An environment holding only what the CLI needs, with its own config dir. */
export function cleanEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir, AGENTS_CONFIG_DIR: dir, NO_COLOR: '1', ...extra };
}

/** A Context like the CLI builds, with stdout and stderr captured. */
export interface Captured {
  ctx: Context;
  stdout: () => string;
  stderr: () => string;
}

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

export async function capture(
  env: NodeJS.ProcessEnv,
  globals: GlobalOptions = {},
  stdin: string | undefined = undefined,
): Promise<Captured> {
  const out = sink();
  const err = sink();
  const input = new PassThrough();
  input.end(stdin ?? '');
  const ctx = await createContext({
    globals,
    env,
    signal: new AbortController().signal,
    stdin: input,
    stdout: out.stream,
    stderr: err.stream,
  });
  return { ctx, stdout: out.text, stderr: err.text };
}

/** The outcome of one run of the binary. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/agents.js …` with `env` (nothing inherited) and `input` on stdin. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<Run> {
  if (!existsSync(join(ROOT, 'dist', 'cli.js'))) {
    throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
