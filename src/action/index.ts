// The Action's entry, bundled into dist-action/index.mjs (action.yml's `main`): the only Action code that
// touches `process`. A cancelled job (SIGINT, then SIGTERM) stops the wait and leaves the session running.
import { homedir } from 'node:os';
import { runAction } from './run-action.js';

const controller = new AbortController();
let stops = 0;
const onSignal = (sig: NodeJS.Signals) => {
  stops += 1;
  // The runner's second signal means now: the ids are already in $GITHUB_OUTPUT.
  if (stops > 1) process.exit(130);
  controller.abort(sig);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await runAction({
  env: process.env,
  log: (line) => void process.stdout.write(`${line}\n`),
  signal: controller.signal,
  cwd: process.cwd(),
  runtime: { nodeVersion: process.version, platform: process.platform, homedir: homedir() },
});
process.exitCode = code;
// Whatever the run left (a keep-alive socket, a Redis connection) must not keep the step alive.
process.exit(code);
