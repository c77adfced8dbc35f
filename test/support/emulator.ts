// The one way a test starts an emulator: on a free port, no rate limit unless asked, and closed after the
// test (`emulator`) or by the test itself (`ownEmulator`, for tests that run concurrently in one file,
// where a shared afterEach cannot tell whose emulator is whose).
import { afterEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** An emulator closed by the caller. */
export function ownEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, rateLimit: false, ...opts });
}

/** An emulator closed once the test ends. */
export async function emulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const em = await ownEmulator(opts);
  running.push(em);
  return em;
}
