// One run of the GitHub Action: the key masked first, the inputs checked and the workspace's files read,
// then the session work through the library's public entry (turn.ts): the ids to $GITHUB_OUTPUT as soon
// as the service took the turn, the result, the step summary and one annotation when the step fails or
// times out. The Action is not a second client: it sends nothing but through `Agents`. It speaks to the
// runner in GitHub's toolkit (@actions/core), which reads the step's environment (its inputs, the runner's
// files) from the process and writes the log to its stdout: so the Action reads the environment there too.
import { getInput, info, setSecret, summary } from '@actions/core';
import { Agents, AgentsError, ExitCode } from '../sdk/index.js';
import { githubFiles, stepSummary, toCliError, type Env, type Tuning } from '../core/index.js';
import { agentsOptions } from './client.js';
import { parseInputs, type ActionInputs, type InputReader } from './inputs.js';
import { endOutputs, idOutputs, postedOutputs, replied, unanswered, type Reported } from './result.js';
import { promptOf, schemaOf } from './sources.js';
import { runTurn, type TurnJob, type TurnOutcome } from './turn.js';
import { annotate, setOutputs, stopCommands } from './toolkit.js';

export { OUTPUT_NAMES } from './result.js';

/** How a step ended, as the `status` output says it (empty: cancelled, the session goes on). */
export type ActionStatus = 'completed' | 'timed_out' | 'schema_mismatch' | 'failed';

/** What the Action is given beside the step's environment and log (the toolkit's: the process's). */
export interface ActionIO {
  /** Aborts on SIGINT or SIGTERM (a cancelled job). */
  signal: AbortSignal;
  /** Where relative paths lead when GITHUB_WORKSPACE is not set. */
  cwd: string;
  /** A test's: the library's retries, poll schedule and pacing, and the heartbeat lines' gap. */
  tuning?: Tuning;
}

/** The status an exit code of the contract means (130: cancelled, no status). */
function statusOf(code: number): ActionStatus | undefined {
  if (code === ExitCode.OK) return 'completed';
  if (code === ExitCode.TIMEOUT) return 'timed_out';
  if (code === ExitCode.SCHEMA_MISMATCH) return 'schema_mismatch';
  if (code === ExitCode.INTERRUPTED) return undefined;
  return 'failed';
}

/** Everything checked and read before anything is sent. */
interface Ready {
  inputs: ActionInputs;
  agents: Agents;
  message: string;
  outputSchema: TurnJob['outputSchema'];
}

/** Reads and checks the inputs and the workspace's files, and makes the client; a UsageError at the first wrong. */
async function prepare(io: ActionIO, env: Env, read: InputReader): Promise<Ready> {
  const inputs = parseInputs(read, env.GITHUB_WORKSPACE || io.cwd);
  const agents = new Agents(agentsOptions(inputs, env, info, io.tuning));
  return { inputs, agents, message: await promptOf(inputs), outputSchema: await schemaOf(inputs) };
}

/** Appends the step summary, where the runner names a file and AGENTS_STEP_SUMMARY does not turn it off. */
async function writeSummary(env: Env, reported: Reported, title: string | undefined): Promise<void> {
  if (githubFiles(env, {}).summary === undefined) return;
  try {
    // Emptied first: a write that failed leaves its text in the toolkit's buffer.
    await summary.emptyBuffer().addRaw(stepSummary(reported.result, title)).write();
  } catch (err) {
    info(`warning: could not write the step summary: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Writes what the turn's end gives the job (outputs, summary); whether a result (and its status) was written. */
async function report(io: ActionIO, env: Env, ready: Ready, outcome: TurnOutcome): Promise<boolean> {
  const { turn, reply, error } = outcome;
  if (turn === undefined) return false;
  const title = turn.session?.title || undefined;
  const reported = reply ? replied(reply) : await unanswered(ready.agents, turn, error, io.signal, info);
  if (reported !== undefined) {
    // A schema never matched: what was wrong with the last answer, in the log too (as the CLI writes it).
    const wrong = reported.result.schema_errors ?? [];
    if (wrong.length > 0) info('the last answer did not match the schema:');
    for (const e of wrong) info(`  ${e.path || '(the value)'}: ${e.message}`);
    setOutputs(endOutputs(reported, turn));
    await writeSummary(env, reported, title);
    return true;
  }
  if (error === undefined) setOutputs(postedOutputs(turn));
  return false;
}

/**
 * The exit code of a run that ended on `error` (none: 0), its annotation logged, and its `status` written
 * unless its result was (without a wait nothing has ended: no status unless the post failed).
 */
function ending(inputs: ActionInputs, error: unknown, reported: boolean): number {
  if (error === undefined) return ExitCode.OK;
  // The library throws its own errors alone; a runner file that could not be written is one line too.
  const err = toCliError(error);
  const status = statusOf(err.exitCode);
  if (status !== undefined && !reported) setOutputs({ status });
  if (status === 'timed_out' && !inputs.failOnTimeout) {
    annotate('warning', err.message, err.hint);
    return ExitCode.OK;
  }
  annotate('error', err.message, err.hint);
  return status === undefined ? ExitCode.INTERRUPTED : ExitCode.FAILURE;
}

/** The Action from start to end; resolves to the process's exit code. */
export async function runAction(io: ActionIO): Promise<number> {
  const env: Env = process.env;
  const read: InputReader = (name) => getInput(name);
  // Before anything else can print it, an error message included.
  const key = read('blocks_api_key');
  if (key !== '') setSecret(key);
  const budgetPassword = safeUrlPassword(read('budget_url'));
  if (budgetPassword !== undefined) setSecret(budgetPassword);

  let ready: Ready;
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

  // The lines between these (which may quote the service's text) are read by the runner as text only.
  const commands = stopCommands();
  info(commands.stop);
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
    reported = await report(io, env, ready, outcome);
  } finally {
    info(commands.resume);
  }
  return ending(ready.inputs, outcome.error, reported);
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
