// A waiting command's deadline ends the process itself (the built binary): no socket to a silent service,
// and no wait for a slot of a spent shared budget, keeps it alive. The rest of --timeout is tested
// in-process (test/main/cli/wait.test.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, KEY } from '../support/fixture.js';
import { runCli } from '../support/run-cli.js';
import { stateFileName } from '../../src/core/budget/state.js';

describe('--timeout ends the process itself', () => {
  const SLOW_POST = {
    faults: { rate: 1, modes: ['slow' as const], methods: ['POST' as const], slowMs: 60_000 },
  };

  it('the process itself ends at the deadline (no socket to the silent service keeps it alive)', async () => {
    const f = await fixture(SLOW_POST);
    const r = await runCli(['create', '-a', 'claude', '--wait', '--timeout', '0.5s', 'x'], {
      env: f.env,
      closeStdin: true,
      killAfterMs: 15_000,
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(124);
    expect(r.stderr).toMatch(
      /^error: timed out after 500ms before the service answered; the session may have been created\n/,
    );
  });

  it('the deadline also ends a wait for a slot of a spent shared budget, and the process with it', async () => {
    const f = await fixture();
    // Another process spent the key's minute just now.
    const dir = join(f.env.AGENTS_CONFIG_DIR ?? '', 'pacing');
    mkdirSync(dir, { recursive: true });
    const now = Date.now();
    const spent = { v: 1, ended: Array.from({ length: 100 }, () => now), flight: {}, waiters: {} };
    writeFileSync(join(dir, stateFileName(new URL(f.em.url).origin, KEY)), JSON.stringify(spent), {
      mode: 0o600,
    });
    const r = await runCli(['create', '-a', 'claude', '--wait', '--timeout', '0.5s', 'x'], {
      env: f.env,
      closeStdin: true,
      killAfterMs: 15_000,
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(124);
    expect(r.stderr).toMatch(
      /^error: timed out after 500ms; the session was not created \(nothing the service acted on was sent\)\n/,
    );
    expect(f.em.stats().requests).toBe(0);
  });
});
