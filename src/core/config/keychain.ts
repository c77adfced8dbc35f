// The system's credential store through a child process (keychain-helper.ts says why): one that has not
// answered within the bound is killed and counts as none, so a hung D-Bus call never hangs a command.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSea } from 'node:sea';
import type { Env } from '../io/io.js';
import type { KeychainAnswer, KeychainRequest } from './keychain-helper.js';

/** The service of the store's entries; the account is `<profile>@<config directory>`. */
export const KEYCHAIN_SERVICE = 'agents-cli';

/** How long the store may take before it counts as none (the 3 s; tests shorten it). */
const KEYCHAIN_TIMEOUT_MS = 3_000;

export type KeychainResult<T> =
  { ok: true; value: T } | { ok: false; kind: 'unavailable' | 'refused' | 'timeout'; message: string };

export interface KeychainOptions {
  env: Env;
  timeoutMs?: number;
}

/** This executable again (the one-file build), or Node on the helper's file. */
function helperCommand(): { file: string; args: string[]; env: Env } {
  if (isSea()) return { file: process.execPath, args: [], env: { AGENTS_KEYCHAIN_HELPER: '1' } };
  // Beside this file in src/ (the tests), one folder up from dist/'s chunks (dist/chunks, dist/lib).
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = ['keychain-helper.js', '../keychain-helper.js', 'keychain-helper.ts'].map((f) =>
    join(here, f),
  );
  const helper = candidates.find((p) => existsSync(p)) ?? join(here, 'keychain-helper.js');
  return { file: process.execPath, args: ['--no-warnings', helper], env: { AGENTS_KEYCHAIN_HELPER: '1' } };
}

/** Sends one request to the store through the helper, with the bound. Never rejects; never logs the secret. */
export async function keychainCall<T>(
  request: KeychainRequest,
  options: KeychainOptions,
): Promise<KeychainResult<T>> {
  const bound = options.timeoutMs ?? KEYCHAIN_TIMEOUT_MS;
  const { file, args, env } = helperCommand();
  return new Promise((resolve) => {
    let out = '';
    let settled = false;
    const done = (r: KeychainResult<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      // Its stderr is dropped: the library's own diagnostics are not ours to print.
      child = spawn(file, args, { env: { ...options.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
    } catch (err) {
      done({ ok: false, kind: 'unavailable', message: `the keychain helper did not start (${String(err)})` });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ ok: false, kind: 'timeout', message: `did not answer within ${bound} ms` });
    }, bound);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (c: string) => (out += c));
    child.on('error', (err) =>
      done({ ok: false, kind: 'unavailable', message: `the keychain helper did not start (${err.message})` }),
    );
    child.on('close', () => {
      try {
        const answer = JSON.parse(out) as KeychainAnswer;
        done(answer.ok ? { ok: true, value: answer.value as T } : answer);
      } catch {
        done({ ok: false, kind: 'unavailable', message: 'the keychain helper ended without an answer' });
      }
    });
    // A closed pipe (the helper died at once) is the 'close' above, not an error of ours.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(JSON.stringify(request));
  });
}
