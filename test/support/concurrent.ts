// Many `agents` processes at once in one config dir, for the tests of concurrent writers
// (test/process/concurrent-*.test.ts): the built binary, since separate processes racing for one file is
// what is under test, which runs in one process would not show.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cliEnv, runCli, type CliResult } from './run-cli.js';

export const AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'cursor', 'kimi'];

/**
 * Runs every command at once in one config dir; resolves when all have ended. Twenty processes starting
 * together on two busy cores may take a while: the kill is a safety net for a hang, never a time limit.
 */
export function all(dir: string, runs: { args: string[]; env?: NodeJS.ProcessEnv }[]): Promise<CliResult[]> {
  return Promise.all(
    runs.map((r) =>
      runCli(r.args, {
        env: cliEnv({ AGENTS_CONFIG_DIR: dir, ...r.env }),
        closeStdin: true,
        killAfterMs: 90_000,
      }),
    ),
  );
}

export function expectAllOk(results: CliResult[]): void {
  const failed = results.filter((r) => r.code !== 0).map((r) => ({ code: r.code, stderr: r.stderr }));
  expect(failed).toEqual([]);
}

/** The file parses as JSON, is 0600, and sits alone (no temp or lock files) with `others`. */
export function checkFile(dir: string, name: string, others: string[] = []): unknown {
  const path = join(dir, name);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir).sort()).toEqual([name, ...others].sort());
  return JSON.parse(readFileSync(path, 'utf8'));
}
