// A GitHub Action step as a runner sets it up: a workspace, its `with:` as INPUT_<NAME> variables, and files
// for GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_ENV; the bundle run as a runner runs it (`node <main>`),
// or (action-main.ts) the Action in-process; then what it left, read back.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { cliEnv, ROOT, runCli, type RunOptions } from './run-cli.js';

/** action.yml's `runs.main` as this test run built it (global-setup.ts), else the committed bundle. */
export const ACTION_MAIN =
  process.env.AGENTS_TEST_BIN !== undefined
    ? join(dirname(dirname(process.env.AGENTS_TEST_BIN)), 'dist-action', 'index.mjs')
    : join(ROOT, 'dist-action', 'index.mjs');

/** The committed bundle that action.yml names. */
export const COMMITTED_MAIN = join(ROOT, 'dist-action', 'index.mjs');

/** The names under a top-level key of action.yml (`inputs:` or `outputs:`), in their order. */
export function declared(section: 'inputs' | 'outputs'): string[] {
  const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  const body = new RegExp(`^${section}:\\n((?:(?: .*)?\\n)*)`, 'm').exec(text)?.[1] ?? '';
  return [...body.matchAll(/^ {2}([a-z_]+):/gm)].map((m) => m[1] ?? '');
}

/** The step outputs in $GITHUB_OUTPUT's text, the last value of each name winning (as the runner reads them). */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([a-z_]+)<<(\S+)$/.exec(lines[i] ?? '');
    if (!m) continue;
    const end = lines.indexOf(m[2] ?? '', i + 1);
    expect(end, `unterminated output ${m[1]}`).toBeGreaterThan(i);
    out[m[1] ?? ''] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return out;
}

export interface ActionRun {
  code: number | null;
  /** The job's log (in-process: the lines the Action logged). */
  stdout: string;
  stderr: string;
  /** $GITHUB_OUTPUT as written, and parsed. */
  outputText: string;
  outputs: Record<string, string>;
  summary: string;
  envFile: string;
  /** The `::error::` and `::warning::` lines of the log. */
  errors: string[];
  warnings: string[];
  workspace: string;
}

export interface ActionOptions {
  /** Files to put in the workspace first (path → text). */
  files?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
  onSpawn?: RunOptions['onSpawn'];
  /** Called with the $GITHUB_OUTPUT path before the run (to watch it). */
  outputPath?: (path: string) => void;
  /** The step summary's file, emptied first (default: one of the step's own). */
  summaryPath?: string;
}

/** A run's workspace and runner files, and the environment a runner gives the step. */
export interface ActionStep {
  workspace: string;
  files: { output: string; summary: string; env: string };
  env: NodeJS.ProcessEnv;
}

/** Sets up a step with these inputs (every name must be one action.yml declares), as a runner does. */
export function actionStep(inputs: Record<string, string>, o: ActionOptions = {}): ActionStep {
  const known = declared('inputs');
  for (const name of Object.keys(inputs)) expect(known, `input ${name} in action.yml`).toContain(name);
  const dir = mkdtempSync(join(tmpdir(), 'agents-action-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  for (const [path, text] of Object.entries(o.files ?? {})) writeFileSync(join(workspace, path), text);
  const summary = o.summaryPath ?? join(dir, 'summary');
  const files = { output: join(dir, 'output'), summary, env: join(dir, 'env') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  o.outputPath?.(files.output);
  const env = cliEnv({
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    ...o.env,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
  });
  return { workspace, files, env };
}

/** What a step left: its exit code and log, and the runner's files read back (every output declared). */
export function actionRun(
  step: ActionStep,
  r: { code: number | null; stdout: string; stderr: string },
): ActionRun {
  const outputText = readFileSync(step.files.output, 'utf8');
  const outputs = parseOutputs(outputText);
  const outputNames = declared('outputs');
  for (const name of Object.keys(outputs))
    expect(outputNames, `output ${name} in action.yml`).toContain(name);
  const lines = r.stdout.split('\n');
  return {
    code: r.code,
    stdout: r.stdout,
    stderr: r.stderr,
    outputText,
    outputs,
    summary: readFileSync(step.files.summary, 'utf8'),
    envFile: readFileSync(step.files.env, 'utf8'),
    errors: lines.filter((l) => l.startsWith('::error')),
    warnings: lines.filter((l) => l.startsWith('::warning')),
    workspace: step.workspace,
  };
}

/** Runs the bundled action (`node dist-action/index.mjs`) with these inputs, as a runner does. */
export async function runAction(inputs: Record<string, string>, o: ActionOptions = {}): Promise<ActionRun> {
  const step = actionStep(inputs, o);
  const r = await runCli([], {
    bin: ACTION_MAIN,
    env: step.env,
    cwd: step.workspace,
    closeStdin: true,
    onSpawn: o.onSpawn,
  });
  return actionRun(step, r);
}

/**
 * The key appears in the run's first log line alone, the mask that hides it from every later line: in no
 * other line of stdout or stderr, no output, the summary or GITHUB_ENV.
 */
export function expectKeyKept(run: ActionRun, key: string): void {
  const [first, ...rest] = run.stdout.split('\n');
  expect(first).toBe(`::add-mask::${key}`);
  for (const [where, text] of [
    ['the log', rest.join('\n')],
    ['stderr', run.stderr],
    ['GITHUB_OUTPUT', run.outputText],
    ['the step summary', run.summary],
    ['GITHUB_ENV', run.envFile],
  ] as const) {
    expect(text, `the key in ${where}`).not.toContain(key);
  }
}
