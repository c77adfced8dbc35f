// One run of the GitHub Action: the key masked first, the inputs checked, `agents create|send` run in-process
// by main() (whose --github-output writes the ids before the wait), then the outputs only the Action has,
// and one annotation when the step fails or times out.
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { main } from '../cli.js';
import { CliError, ExitCode } from '../errors/cli-error.js';
import type { Env, IO } from '../io/io.js';
import { commandLine } from './command-line.js';
import { envInputs, parseInputs, type ActionInputs } from './inputs.js';
import { structuredOutput } from './schema.js';
import { addMask, annotation, outputNames, setOutputs, stopCommands } from './workflow-commands.js';

/** Every output action.yml declares; the CLI writes the first six under --github-output, the Action the rest. */
export const OUTPUT_NAMES = [
  'session_id',
  'thread_id',
  'final_message',
  'session_html_url',
  'pull_requests',
  'status',
  'structured_output',
  'schema_errors',
  'result',
] as const;

/** How a step ended, as the `status` output says it (empty: cancelled, the session goes on). */
export type ActionStatus = 'completed' | 'timed_out' | 'schema_mismatch' | 'failed';

/** What the Action is given in place of `process`. */
export interface ActionIO {
  env: Env;
  /** The job's log: workflow commands and the CLI's lines. */
  log: (line: string) => void;
  /** Aborts on SIGINT or SIGTERM (a cancelled job). */
  signal: AbortSignal;
  /** Where relative paths lead when GITHUB_WORKSPACE is not set. */
  cwd: string;
  runtime: IO['runtime'];
}

/** The CLI's stderr as log lines, keeping its `error:` and `hint:` lines back for the annotation. */
class StderrLines extends Writable {
  error: string | undefined;
  hint: string | undefined;
  private partial = '';

  constructor(private readonly log: (line: string) => void) {
    super();
  }

  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const lines = (this.partial + chunk.toString()).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
    done();
  }

  flushRest(): void {
    if (this.partial !== '') this.line(this.partial);
    this.partial = '';
  }

  private line(line: string): void {
    if (line.startsWith('error: ')) this.error = line.slice('error: '.length);
    else if (line.startsWith('hint: ')) this.hint = line.slice('hint: '.length);
    else this.log(line);
  }
}

/** stdout of the CLI, kept whole: the JSON it prints is the `result` output. */
class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** The status an exit code of the contract means (130: cancelled, no status). */
function statusOf(code: number): ActionStatus | undefined {
  if (code === ExitCode.OK) return 'completed';
  if (code === ExitCode.TIMEOUT) return 'timed_out';
  if (code === ExitCode.SCHEMA_MISMATCH) return 'schema_mismatch';
  if (code === ExitCode.INTERRUPTED) return undefined;
  return 'failed';
}

function parseResult(stdout: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(stdout);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `agents` for the inputs; its exit code, stdout and its error and hint lines. */
async function runAgents(io: ActionIO, inputs: ActionInputs) {
  const run = commandLine(inputs, io.env);
  const stdout = new Collect();
  const stderr = new StderrLines(io.log);
  const commands = stopCommands();
  io.log(commands.stop);
  const code = await main(run.argv, {
    stdin: Readable.from(run.stdin === undefined ? [] : [run.stdin]),
    stdinIsTTY: false,
    stdout,
    stderr,
    env: run.env,
    signal: io.signal,
    runtime: io.runtime,
    ...(run.tuning !== undefined ? { tuning: run.tuning } : {}),
  });
  stderr.flushRest();
  io.log(commands.resume);
  return { code, stdout: stdout.text.trim(), error: stderr.error, hint: stderr.hint };
}

/** The outputs the CLI does not write: `result`, `structured_output`, the ids without a wait, `status`. */
export function actionOutputs(
  inputs: ActionInputs,
  result: Record<string, unknown> | undefined,
  status: ActionStatus | undefined,
  written: Map<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (result !== undefined) out.result = JSON.stringify(result);
  // The CLI's --github-output writes it once the answer matched; a result read from stdout covers the rest.
  const structured = structuredOutput(result);
  if (structured !== undefined && !written.has('structured_output')) out.structured_output = structured;
  if (!inputs.wait && result !== undefined && status === 'completed') {
    // create: the Session; send: the Message just posted (its session is the input's).
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    out.session_id = inputs.sessionId ?? str(result.id);
    out.thread_id = str(inputs.sessionId === undefined ? result.thread_id : result.chat_thread_id);
    out.session_html_url = str(result.session_html_url);
  }
  // The CLI wrote `completed` or `timed_out` when its wait ended; the Action says what else happened
  // (without a wait nothing has ended: no status unless the post failed).
  const ended = inputs.wait || status !== 'completed';
  if (status !== undefined && ended && written.get('status') !== status) out.status = status;
  return out;
}

/** The Action from start to end; resolves to the process's exit code. */
export async function runAction(io: ActionIO): Promise<number> {
  const read = envInputs(io.env);
  // Before anything else can print it, an error message included.
  const key = read('blocks_api_key');
  if (key !== '') io.log(addMask(key));
  const budgetPassword = safeUrlPassword(read('budget_url'));
  if (budgetPassword !== undefined) io.log(addMask(budgetPassword));
  const outputFile = io.env.GITHUB_OUTPUT;

  let inputs: ActionInputs;
  try {
    inputs = parseInputs(read, io.env.GITHUB_WORKSPACE || io.cwd);
    // The schema flags are checked here too, so that nothing is sent when they cannot be honoured.
    commandLine(inputs, io.env);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    io.log(annotation('error', err.message, err.hint));
    setOutputs(outputFile, { status: 'failed' });
    return ExitCode.FAILURE;
  }
  for (const name of inputs.ignored) {
    io.log(
      annotation('warning', `input ${name} is ignored with session_id: a follow-up keeps its session's`),
    );
  }

  const ran = await runAgents(io, inputs);
  const status = statusOf(ran.code);
  const result = parseResult(ran.stdout);
  const written = outputNames(readIfThere(outputFile));
  setOutputs(outputFile, actionOutputs(inputs, result, status, written));

  if (status === 'completed') return ExitCode.OK;
  const message = ran.error ?? `agents ended with exit code ${ran.code}`;
  if (status === 'timed_out' && !inputs.failOnTimeout) {
    io.log(annotation('warning', message, ran.hint));
    return ExitCode.OK;
  }
  io.log(annotation('error', message, ran.hint));
  return ran.code === ExitCode.INTERRUPTED ? ExitCode.INTERRUPTED : ExitCode.FAILURE;
}

/** What the CLI wrote to $GITHUB_OUTPUT ('' when it wrote nothing, or the runner names no file). */
function readIfThere(file: string | undefined): string {
  try {
    return file ? readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
}

/** The password in a redis:// address, to be masked (undefined when there is none or it is no URL). */
function safeUrlPassword(url: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}
