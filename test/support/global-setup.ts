// Builds the binary once before any test runs, into a private directory of this run (.test-build/<id>/,
// inside the checkout so that node_modules resolve), so every end-to-end test drives the current code and
// two test runs in one checkout never delete each other's build. The tests find it through AGENTS_TEST_BIN.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export default function setup(): (() => void) | undefined {
  // Each project of vitest.config.ts runs the global setup of the config it extends: build once.
  if (process.env.AGENTS_TEST_BIN !== undefined) return undefined;
  const root = join(import.meta.dirname, '..', '..');
  const dir = join(root, '.test-build', `${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--out', join(dir, 'dist')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
  cpSync(join(root, 'bin'), join(dir, 'bin'), { recursive: true });
  process.env.AGENTS_TEST_BIN = join(dir, 'bin', 'agents.js');
  return () => rmSync(dir, { recursive: true, force: true });
}
