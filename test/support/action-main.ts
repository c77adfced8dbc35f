// The GitHub Action in-process: runAction() (src/action/run-action.ts) with a step set up as a runner sets
// it up (action.ts), its log collected, a stop signal the test controls, and the suite's fast poll schedule.
// Its HTTP goes over a real socket to the emulator, through the library's public entry as in the bundle.
// The runner's side is GitHub's toolkit (@actions/core), as in the bundle: it reads the step's inputs and
// files from process.env and writes the log to process.stdout, so a step has the process's environment
// and stdout to itself while it runs (both restored after), and steps started together take turns.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { runAction as run } from '../../src/action/run-action.js';
import type { Tuning } from '../../src/core/io/io.js';
import { actionRun, actionStep, type ActionOptions, type ActionRun } from './action.js';
import { FAST_TUNING } from './main.js';

export interface InProcessOptions extends Omit<ActionOptions, 'onSpawn'> {
  /** Called once the step has started, with its log so far and a way to cancel it (SIGINT's abort). */
  onStart?: (step: { readonly log: string; cancel: () => void }) => void;
  /** Overrides of the suite's fast tuning (a heartbeat's gap, say). */
  tuning?: Tuning;
}

/** The step running now: the next waits for it. */
let running: Promise<unknown> = Promise.resolve();

/**
 * The step summary's file of every in-process step: the toolkit keeps the first one it wrote to for the
 * process's life (a runner's process is one step), so each step here empties this one and reads it back.
 */
const SUMMARY = join(mkdtempSync(join(tmpdir(), 'agents-action-summary-')), 'summary');

/** Runs the Action in-process with these inputs; what it left, as a spawned run's. */
export function runActionInProcess(
  inputs: Record<string, string>,
  o: InProcessOptions = {},
): Promise<ActionRun> {
  const step = running.then(() => runStep(inputs, o));
  running = step.catch(() => undefined);
  return step;
}

async function runStep(inputs: Record<string, string>, o: InProcessOptions): Promise<ActionRun> {
  const step = actionStep(inputs, { ...o, summaryPath: SUMMARY });
  const stop = new AbortController();
  let log = '';
  const env = process.env;
  process.env = { ...step.env };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    log += String(chunk);
    return true;
  });
  let code: number;
  try {
    const started = run({
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
    code = await started;
  } finally {
    process.env = env;
    stdout.mockRestore();
  }
  return actionRun(step, { code, stdout: log, stderr: '' });
}
