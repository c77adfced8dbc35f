// The Action's session work, through the library's public entry alone: create (or send), the ids handed
// on at once, then the wait (a schema's follow-ups are the library's too), logged by the lines the CLI
// writes to a CI log too (core/events/progress.ts).
import type { Agents, JsonSchema, Reply, Turn } from '../sdk/index.js';
import { lineProgress } from '../core/index.js';
import { monotonicMs } from '../util/clock.js';
import type { ActionInputs } from './inputs.js';

export interface TurnJob {
  agents: Agents;
  inputs: ActionInputs;
  message: string;
  outputSchema: JsonSchema | undefined;
  signal: AbortSignal;
  log: (line: string) => void;
  /** Between two "still waiting" lines (default the CLI's, a minute). */
  heartbeatMs?: number;
  /** Told of the turn once the service took it, before any wait (the ids go to $GITHUB_OUTPUT then). */
  posted: (turn: Turn) => void;
}

/** How far the work got: the turn the service took (if any), its reply when waited for, or the error it ended on. */
export interface TurnOutcome {
  turn: Turn | undefined;
  reply?: Reply;
  error?: unknown;
}

/** A new session, or a follow-up on session_id, within timeout_minutes. */
function post(job: TurnJob): Promise<Turn> {
  const { agents, inputs: i, message, signal } = job;
  const schema = job.outputSchema ? { outputSchema: job.outputSchema, schemaRetries: i.schema?.retries } : {};
  const call = { signal, timeout: i.timeoutMs, ...schema };
  if (i.sessionId !== undefined) return agents.send(i.sessionId, message, call);
  return agents.create({
    ...(i.agent !== undefined ? { agent: i.agent } : { agentId: i.agentId }),
    message,
    ...(i.title !== undefined ? { title: i.title } : {}),
    ...(i.sessionGroupId !== undefined ? { sessionGroupId: i.sessionGroupId } : {}),
    ...(i.isPrivate ? { isPrivate: true } : {}),
    ...call,
  });
}

/** Posts the turn and, with `wait`, waits for its reply. timeout_minutes bounds the two together, as the
 * CLI's --timeout bounds a whole `create --wait`: the wait gets what the post left of it. */
export async function runTurn(job: TurnJob): Promise<TurnOutcome> {
  const { agents, inputs: i, log } = job;
  const started = monotonicMs();
  let turn: Turn | undefined;
  try {
    turn = await post(job);
    job.posted(turn);
    if (!i.wait) return { turn };
    const who = i.sessionId !== undefined ? 'the reply' : (i.agent ?? 'the agent');
    const progress = lineProgress({
      log: { info: log },
      ...(job.heartbeatMs ? { heartbeatMs: job.heartbeatMs } : {}),
    });
    await progress.start(`Waiting for ${who}…`, {
      sessionId: turn.sessionId,
      ...(turn.url ? { url: turn.url } : {}),
    });
    try {
      const reply = await agents.wait(turn, {
        signal: job.signal,
        // Never 0, which is a wait's "look once".
        timeout: Math.max(1, i.timeoutMs - (monotonicMs() - started)),
      });
      return { turn, reply };
    } finally {
      progress.stop();
    }
  } catch (error) {
    return { turn, error };
  }
}
