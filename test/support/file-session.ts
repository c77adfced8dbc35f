// For the files that start the built binary: an emulator of the file's own (setup.ts closes what
// emulator() starts after every test, not after the file), the environment pointing at it, and one session
// created on it in-process, made before the file's tests and closed after them.
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ownEmulator } from './emulator.js';
import { KEY } from './key.js';
import { runMain } from './main.js';
import { cliEnv } from './run-cli.js';

export interface FileSession {
  em: RunningEmulator;
  env: NodeJS.ProcessEnv;
  sessionId: string;
}

/** Registers the file's beforeAll and afterAll; the fields are there once the tests run. */
export function fileSession(): FileSession {
  const s = {} as FileSession;
  beforeAll(async () => {
    s.em = await ownEmulator();
    s.env = cliEnv({ AGENTS_BASE_URL: s.em.url, AGENTS_API_KEY: KEY });
    const created = await runMain(['create', '-a', 'claude', 'hello'], { env: s.env });
    expect(created.code, created.stderr).toBe(0);
    s.sessionId = created.stdout.trim();
    // Its turn ended and recorded so (a wait sees the end): a `show` then reads the state file and writes
    // nothing, so what it loads does not depend on whether its own requests saw the turn end first.
    s.em.endTurns(s.sessionId);
    const waited = await runMain(['wait', s.sessionId], { env: s.env });
    expect(waited.code, waited.stderr).toBe(0);
  });
  afterAll(() => s.em.close());
  return s;
}
