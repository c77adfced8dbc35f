// One run of the GitHub Action: the key masked first, the inputs checked and the workspace's files read,
// then the session work (turn.ts): the ids to $GITHUB_OUTPUT as soon as the service took the turn, the
// result, the step summary and one annotation when the step fails or times out. GitHub's toolkit
// (@actions/core) reads the step's environment from the process, so the Action reads it there too.
import { randomBytes } from 'node:crypto';
import { error, getInput, info, setOutput, setSecret, summary, warning } from '@actions/core';
import { Agents, AgentsError, ExitCode } from '../sdk/index.js';
import { githubFiles, stepSummary, toCliError, type Env, type Tuning } from '../core/index.js';
import { agentsOptions } from './client.js';
import { parseInputs, type InputReader } from './inputs.js';
import { endOutputs, idOutputs, postedOutputs, replied, unanswered, type Outputs } from './result.js';
import { promptOf, schemaOf } from './sources.js';
import { runTurn, type TurnOutcome } from './turn.js';
import { errorMessage } from '../util/text.js';

export { OUTPUT_NAMES } from './result.js';

/** What the Action is given beside the step's environment and log (the toolkit's: the process's). */
export interface ActionIO {
  /** Aborts on SIGINT or SIGTERM (a cancelled job). */
  signal: AbortSignal;
  /** Where relative paths lead when GITHUB_WORKSPACE is not set. */
  cwd: string;
  /** A test's: the library's retries, poll schedule and pacing, and the heartbeat lines' gap. */
  tuning?: Tuning;
}

/** The `status` output of an exit code of the contract; any other is 'failed' (130: cancelled, none). */
const STATUS: Partial<Record<number, string>> = {
  [ExitCode.OK]: 'completed',
  [ExitCode.TIMEOUT]: 'timed_out',
  [ExitCode.SCHEMA_MISMATCH]: 'schema_mismatch',
};

/** One annotation: the message, and the hint on its own line beneath (the toolkit escapes the line break). */
function annotate(level: 'error' | 'warning', message: string, hint?: string): void {
  (level === 'error' ? error : warning)(hint ? `${message}\nhint: ${hint}` : message);
}

/** Step outputs, in their order (each a `name<<delimiter` block of $GITHUB_OUTPUT, multi-line whole). */
function setOutputs(fields: Outputs): void {
  for (const [name, value] of Object.entries(fields)) setOutput(name, value);
}

/** Reads and checks the inputs and the workspace's files, and makes the client; a UsageError at the first wrong. */
async function prepare(io: ActionIO, env: Env, read: InputReader) {
  const inputs = parseInputs(read, env.GITHUB_WORKSPACE || io.cwd);
  const agents = new Agents(agentsOptions(inputs, env, info, io.tuning));
  return { inputs, agents, message: await promptOf(inputs), outputSchema: await schemaOf(inputs) };
}

/** Writes what the turn's end gives the job (outputs, summary); whether a result (and its status) was written. */
async function report(io: ActionIO, env: Env, agents: Agents, outcome: TurnOutcome): Promise<boolean> {
  const { turn, reply, error } = outcome;
  if (turn === undefined) return false;
  const reported = reply ? replied(reply) : await unanswered(agents, turn, error, io.signal, info);
  if (reported === undefined) {
    if (error === undefined) setOutputs(postedOutputs(turn));
    return false;
  }
  // A schema never matched: what was wrong with the last answer, in the log too (as the CLI writes it).
  const wrong = reported.result.schema_errors ?? [];
  if (wrong.length > 0) info('the last answer did not match the schema:');
  for (const e of wrong) info(`  ${e.path || '(the value)'}: ${e.message}`);
  setOutputs(endOutputs(reported, turn));
  // Where the runner names a file and AGENTS_STEP_SUMMARY does not turn it off.
  if (githubFiles(env, {}).summary === undefined) return true;
  try {
    const text = stepSummary(reported.result, turn.session?.title || undefined);
    // Emptied first: a write that failed leaves its text in the toolkit's buffer.
    await summary.emptyBuffer().addRaw(text).write();
  } catch (err) {
    info(`warning: could not write the step summary: ${errorMessage(err)}`);
  }
  return true;
}

/** The exit code of a run that ended on `error` (none: 0), its annotation logged, and its `status` written
 * unless its result was (no wait: no status unless the post failed). */
function ending(failOnTimeout: boolean, error: unknown, reported: boolean): number {
  if (error === undefined) return ExitCode.OK;
  // The library throws its own errors alone; a runner file that could not be written is one line too.
  const err = toCliError(error);
  const status = err.exitCode === ExitCode.INTERRUPTED ? undefined : (STATUS[err.exitCode] ?? 'failed');
  if (status !== undefined && !reported) setOutputs({ status });
  if (status === 'timed_out' && !failOnTimeout) {
    annotate('warning', err.message, err.hint);
    return ExitCode.OK;
  }
  annotate('error', err.message, err.hint);
  return status === undefined ? ExitCode.INTERRUPTED : ExitCode.FAILURE;
}

export async function runAction(io: ActionIO): Promise<number> {
  const env: Env = process.env;
  const read: InputReader = (name) => getInput(name);
  // Before anything else can print it, an error message included.
  const key = read('blocks_api_key');
  if (key !== '') setSecret(key);
  const budgetPassword = safeUrlPassword(read('budget_url'));
  if (budgetPassword !== undefined) setSecret(budgetPassword);

  let ready: Awaited<ReturnType<typeof prepare>>;
  try {
    ready = await prepare(io, env, read);
  } catch (err) {
    if (!(err instanceof AgentsError)) throw err;
    annotate('error', err.message, err.hint);
    setOutputs({ status: 'failed' });
    return ExitCode.FAILURE;
  }
  for (const name of ready.inputs.ignored) {
    annotate('warning', `input ${name} is ignored with session_id: a follow-up keeps its session's`);
  }

  // Between these two lines (which may quote the service's text) the runner runs no workflow command.
  const token = `agents-${randomBytes(12).toString('hex')}`;
  info(`::stop-commands::${token}`);
  let outcome: TurnOutcome;
  let reported: boolean;
  try {
    outcome = await runTurn({
      ...ready,
      signal: io.signal,
      log: info,
      ...(io.tuning?.heartbeatMs !== undefined ? { heartbeatMs: io.tuning.heartbeatMs } : {}),
      posted: (turn) => setOutputs(idOutputs(turn)),
    });
    reported = await report(io, env, ready.agents, outcome);
  } finally {
    info(`::${token}::`);
  }
  return ending(ready.inputs.failOnTimeout, outcome.error, reported);
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
