// For the files that start the built binary: an emulator of the file's own (setup.ts closes what
// emulator() starts after every test, not after the file), the environment pointing at it, and one session
// created on it, made before the file's tests and closed after them. With `tls`, the emulator serves HTTPS
// under a test authority (test-ca.ts) that the environment's NODE_EXTRA_CA_CERTS names, as the service is
// reached; the session is then created and waited on by the binary, since Node reads that variable as a process starts.
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ownEmulator } from './emulator.js';
import { KEY } from './key.js';
import { runMain } from './main.js';
import { cliEnv, runCli } from './run-cli.js';
import { testCa } from './test-ca.js';

export interface FileSession {
  em: RunningEmulator;
  env: NodeJS.ProcessEnv;
  sessionId: string;
}

/** Registers the beforeAll and afterAll of the file (or describe block); the fields are there once its tests run. */
export function fileSession(o: { tls?: boolean } = {}): FileSession {
  const s = {} as FileSession;
  beforeAll(async () => {
    const ca = o.tls === true ? testCa() : undefined;
    s.em = await ownEmulator(ca === undefined ? {} : { tls: ca });
    s.env = cliEnv({
      AGENTS_BASE_URL: s.em.url,
      AGENTS_API_KEY: KEY,
      ...(ca === undefined ? {} : { NODE_EXTRA_CA_CERTS: ca.ca }),
    });
    const run = (args: string[]) =>
      ca === undefined ? runMain(args, { env: s.env }) : runCli(args, { env: s.env });
    const created = await run(['create', '-a', 'claude', 'hello']);
    expect(created.code, created.stderr).toBe(0);
    s.sessionId = created.stdout.trim();
    // Its turn ended and recorded so (a wait sees the end): a `show` then reads the state file and writes
    // nothing, so what it loads does not depend on whether its own requests saw the turn end first.
    s.em.endTurns(s.sessionId);
    const waited = await run(['wait', s.sessionId]);
    expect(waited.code, waited.stderr).toBe(0);
  });
  afterAll(() => s.em.close());
  return s;
}
