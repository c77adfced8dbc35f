// The one way a test starts an emulator: on a free port, no rate limit unless asked, turns on a clock
// counted in requests (held, and moved on 1 s by each request answered: `[[think:5000]]` lasts five of the
// client's requests however slow the machine, and no test waits for a timer), and closed after the test
// (`emulator`) or by the test itself (`ownEmulator`, for tests that run concurrently in one file, where a
// shared afterEach cannot tell whose emulator is whose). A test that moves turns on itself passes
// `turnMsPerRequest: 0` (or turns: 'timed' to test real timers).
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

const running: RunningEmulator[] = [];

/**
 * Closes the emulators `emulator()` started; setup.ts calls it after every test. The hook is there, not
 * here: a worker runs many files without reloading this module, and a hook registered when it loads would
 * belong to the first file alone.
 */
export async function closeTestEmulators(): Promise<void> {
  await Promise.all(running.splice(0).map((e) => e.close()));
}

/** An emulator closed by the caller. */
export function ownEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const turns = opts.turns ?? 'held';
  const turnMsPerRequest = turns === 'held' ? (opts.turnMsPerRequest ?? REQUEST_MS) : undefined;
  return startEmulator({ port: 0, rateLimit: false, ...opts, turns, turnMsPerRequest });
}

/** How far each answered request moves a test's held turns on. */
export const REQUEST_MS = 1000;

/** An emulator closed once the test ends. */
export async function emulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const em = await ownEmulator(opts);
  running.push(em);
  return em;
}

/** Plays a session's held turn to its end, as a test does when it needs the reply there (timed: nothing). */
export function endTurn(em: RunningEmulator, sessionId: string): void {
  if (em.heldTurnEvents() > 0) em.endTurns(sessionId);
}
