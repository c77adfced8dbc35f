// A Node older than package.json's engines allow, for the test that the launcher refuses to run on it:
// Node 20 from the npm registry's `node` package (`npx -y node@20`, as .ci/run gets Node 22, 24 and 26;
// from npm's cache after the first time). Where it cannot be had (offline, no npx), the test skips and says
// why; under AGENTS_TEST_REQUIRE_TOOLS=1 (.ci/run) that fails the run instead.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The path of a Node 20, or why there is none here; throws where one must be had. */
export function oldNode(): { path: string; missing?: undefined } | { path?: undefined; missing: string } {
  const probe = spawnSync('npx', ['-y', 'node@20', '-p', 'process.execPath'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
    timeout: 120_000,
  });
  const path = probe.stdout?.trim() ?? '';
  if (probe.status === 0 && existsSync(path)) return { path };
  const reason = `needs Node 20 from npx -y node@20 (${(probe.stderr || String(probe.error)).trim().split('\n')[0]})`;
  if (process.env.AGENTS_TEST_REQUIRE_TOOLS === '1') {
    throw new Error(`${reason} (AGENTS_TEST_REQUIRE_TOOLS=1: a missing program fails the run)`);
  }
  return { missing: reason };
}
