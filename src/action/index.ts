// The Action's entry, bundled into dist-action/index.mjs (action.yml's `main`): the only Action code that
// touches `process`. A cancelled job (SIGINT, then SIGTERM) stops the wait and leaves the session running.
import { runAction } from './run-action.js';
import { onStopSignals } from '../util/stop-signals.js';

const controller = new AbortController();
// The runner's second signal means now: the ids are already in $GITHUB_OUTPUT.
onStopSignals(
  (sig) => controller.abort(sig),
  () => {
    process.stdout.write('::error::cancelled again: stopped at once, the session goes on\n');
    process.exit(130);
  },
);

const code = await runAction({
  env: process.env,
  log: (line) => void process.stdout.write(`${line}\n`),
  signal: controller.signal,
  cwd: process.cwd(),
});
process.exitCode = code;
// Whatever the run left (a keep-alive socket, a Redis connection) must not keep the step alive.
process.exit(code);
