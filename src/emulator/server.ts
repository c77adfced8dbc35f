// The emulator's HTTP(S) server: the options checked, its parts set up (emulation.ts), one pipeline per
// request (pipeline.ts), and the handle a test holds (controls.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import { apiError, listen, writeReply } from './http.js';
import { setUpEmulation } from './emulation.js';
import { handle } from './pipeline.js';
import { controls } from './controls.js';
import type { EmulatorOptions, RunningEmulator } from './surface.js';

export { DEV_KEY } from './emulation.js';

/** A typo in a test's options fails loudly instead of running an emulator that is kinder than asked. */
function checkOptions(o: EmulatorOptions): void {
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535))
    throw new RangeError('port must be an integer from 0 to 65535');
  if (o.timeScale !== undefined && !(o.timeScale >= 0 && Number.isFinite(o.timeScale)))
    throw new RangeError('timeScale must be a finite number >= 0');
  if (o.maxBodyBytes !== undefined && !(o.maxBodyBytes >= 0))
    throw new RangeError('maxBodyBytes must be >= 0');
  if (o.rateLimit && !(o.rateLimit.limit >= 1 && o.rateLimit.windowMs > 0))
    throw new RangeError('rateLimit needs limit >= 1 and windowMs > 0');
  if (o.turns !== undefined && o.turns !== 'timed' && o.turns !== 'held')
    throw new RangeError("turns must be 'timed' or 'held'");
  if (o.turnMsPerRequest !== undefined) {
    if (!(o.turnMsPerRequest >= 0)) throw new RangeError('turnMsPerRequest must be >= 0');
    if (o.turns !== 'held') throw new RangeError("turnMsPerRequest needs turns: 'held'");
  }
}

/** Starts the emulator and resolves once it listens. Rejects (e.g. EADDRINUSE) if it cannot. */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  checkOptions(opts);
  const e = await setUpEmulation(opts);
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    handle(e, req, res).catch(() => {
      // A handler exception is a 500 JSON, never a crash; the emulator keeps serving.
      writeReply(res, apiError(500, 'INTERNAL', 'Internal server error'));
    });
  };
  const timeouts = { requestTimeout: 60_000, headersTimeout: 20_000 };
  const server =
    opts.tls === undefined
      ? createServer(timeouts, serve)
      : createSecureServer({ ...timeouts, cert: opts.tls.cert, key: opts.tls.key }, serve);
  e.listening = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1', opts.tls ? 'https' : 'http');
  return controls(e, server);
}
