// The GitHub Action in-process: runAction() (src/action/run-action.ts) with a step set up as a runner sets
// it up (action.ts), its log collected, a stop signal the test controls, and the suite's fast poll schedule.
// Its HTTP goes over a real socket to the emulator, through the library's public entry as in the bundle.
import { runAction as run } from '../../src/action/run-action.js';
import type { Tuning } from '../../src/io/io.js';
import { actionRun, actionStep, type ActionOptions, type ActionRun } from './action.js';
import { FAST_TUNING } from './main.js';

export interface InProcessOptions extends Omit<ActionOptions, 'onSpawn'> {
  /** Called once the step has started, with its log so far and a way to cancel it (SIGINT's abort). */
  onStart?: (step: { readonly log: string; cancel: () => void }) => void;
  /** Overrides of the suite's fast tuning (a heartbeat's gap, say). */
  tuning?: Tuning;
}

/** Runs the Action in-process with these inputs; what it left, as a spawned run's. */
export async function runActionInProcess(
  inputs: Record<string, string>,
  o: InProcessOptions = {},
): Promise<ActionRun> {
  const step = actionStep(inputs, o);
  const stop = new AbortController();
  let log = '';
  const started = run({
    env: step.env,
    log: (line) => void (log += `${line}\n`),
    signal: stop.signal,
    cwd: step.workspace,
    tuning: { ...FAST_TUNING, ...o.tuning },
  });
  o.onStart?.({
    get log() {
      return log;
    },
    cancel: () => stop.abort('SIGINT'),
  });
  const code = await started;
  return actionRun(step, { code, stdout: log, stderr: '' });
}
