// The Action's session work, through the library's public entry alone: create (or send), the ids handed
// on at once, then the wait (a schema's follow-ups are the library's too), with the CLI's log lines rebuilt
// from the library's progress: "Waiting for … on session …" when it starts, "still waiting (…)" as it goes.
import type { Agents, JsonSchema, Reply, Turn, WaitProgress } from '../sdk/index.js';
import { formatDuration } from '../util/duration.js';
import { monotonicMs } from '../util/clock.js';
import type { ActionInputs } from './inputs.js';

/** What the session work needs beyond the inputs. */
export interface TurnJob {
  agents: Agents;
  inputs: ActionInputs;
  message: string;
  outputSchema: JsonSchema | undefined;
  signal: AbortSignal;
  log: (line: string) => void;
  /** Between two "still waiting" lines. */
  heartbeatMs: number;
  /** Told of the turn once the service took it, before any wait (the ids go to $GITHUB_OUTPUT then). */
  posted: (turn: Turn) => void;
}

/** How far the work got: the turn the service took, its reply when waited for, or the error it ended on. */
export interface TurnOutcome {
  /** Undefined when the service took nothing. */
  turn: Turn | undefined;
  reply?: Reply;
  error?: unknown;
}

/** "still waiting (2m)" once a heartbeat's time has passed since the last, told by the wait's polls. */
function heartbeat(log: (line: string) => void, everyMs: number): (p: WaitProgress) => void {
  let next = everyMs;
  return ({ waitedMs }) => {
    if (waitedMs < next) return;
    log(`still waiting (${formatDuration(waitedMs)})`);
    next = (Math.floor(waitedMs / everyMs) + 1) * everyMs;
  };
}

/** Posts the prompt (a new session, or a follow-up on session_id) within timeout_minutes. */
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

/**
 * Posts the turn and, with `wait`, waits for its reply. timeout_minutes bounds the two together, as the
 * CLI's --timeout bounds a whole `create --wait`: the wait gets what the post left of it.
 */
export async function runTurn(job: TurnJob): Promise<TurnOutcome> {
  const { agents, inputs: i, log } = job;
  const started = monotonicMs();
  let turn: Turn | undefined;
  try {
    turn = await post(job);
    job.posted(turn);
    if (!i.wait) return { turn };
    const who = i.sessionId !== undefined ? 'the reply' : (i.agent ?? 'the agent');
    log(`Waiting for ${who} on session ${turn.sessionId}${turn.url ? ` (${turn.url})` : ''}`);
    const reply = await agents.wait(turn, {
      signal: job.signal,
      // Never 0, which is a wait's "look once".
      timeout: Math.max(1, i.timeoutMs - (monotonicMs() - started)),
      onProgress: heartbeat(log, job.heartbeatMs),
    });
    return { turn, reply };
  } catch (error) {
    return { turn, error };
  }
}
