// The Action's entry, bundled into dist-action/index.mjs (action.yml's `main`): the process's signals and
// exit are handled here alone. A cancelled job (SIGINT, then SIGTERM) stops the wait and leaves the session
// running.
import { error, setFailed } from '@actions/core';
import { runAction } from './run-action.js';
import { onStopSignals } from '../util/stop-signals.js';
import { errorMessage } from '../util/text.js';

const controller = new AbortController();
// The runner's second signal means now: the ids are already in $GITHUB_OUTPUT.
onStopSignals(
  (sig) => controller.abort(sig),
  () => {
    error('cancelled again: stopped at once, the session goes on');
    process.exit(130);
  },
);

const code = await runAction({ signal: controller.signal, cwd: process.cwd() }).catch((err: unknown) => {
  // Not an error of the contract (those are annotations with their exit code): a runner file that could
  // not be written, say. One annotation rather than a stack trace the job's page does not show.
  setFailed(errorMessage(err));
  return 1;
});
process.exitCode = code;
// Whatever the run left (a keep-alive socket, a Redis connection) must not keep the step alive.
process.exit(code);
