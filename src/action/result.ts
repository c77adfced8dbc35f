// The Action's result, from what the library returned: the CI result `agents … --wait --json` prints
// (src/core/events/ci-result.ts), and the step outputs of each stage, made by the helpers the CLI uses too
// so that the two cannot drift.
import { SchemaMismatchError, TimeoutError, type Agents, type Reply, type Turn } from '../sdk/index.js';
import { resultOutputs, type Session, type WaitResult } from '../core/index.js';
import { errorMessage } from '../util/text.js';

/** Every output action.yml declares, in its order. */
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

export type Outputs = Partial<Record<(typeof OUTPUT_NAMES)[number], string>>;

/** How long the read of the session after a time-out may take, even though the wait's own time ran out. */
const SESSION_READ_MS = 10_000;

/** The result of a wait, and the JSON `result` holds: for a reply, the final Message's fields before it. */
export interface Reported {
  result: WaitResult;
  json: Record<string, unknown>;
}

/** The ids, written as soon as the service took the turn: a cancelled or timed-out job still has them. */
export function idOutputs(turn: Turn): Outputs {
  return { session_id: turn.sessionId, thread_id: turn.threadId, session_html_url: turn.url ?? '' };
}

/** wait: false: `result` is what the service returned (create: the Session; send: the Message). */
export function postedOutputs(turn: Turn): Outputs {
  const record = turn.session ?? turn.sent;
  return record === undefined ? {} : { result: JSON.stringify(record) };
}

/** A wait's end: the result's fields, `result`, and the session's address if the wait learnt it (a follow-up's). */
export function endOutputs(reported: Reported, turn: Turn): Outputs {
  const url = reported.result.session_html_url;
  return {
    ...resultOutputs(reported.result),
    ...(turn.url === undefined && url ? { session_html_url: url } : {}),
    result: JSON.stringify(reported.json),
  };
}

export function replied(reply: Reply): Reported {
  const result: WaitResult = {
    session_id: reply.sessionId,
    thread_id: reply.threadId,
    session_html_url: reply.url ?? null,
    status: 'completed',
    final_message: reply.text,
    // The address alone where the service gave no status, as the CLI's result lists it.
    pull_requests: reply.pullRequests.map((p) => (p.status === undefined ? p.url : { ...p })),
    ...(reply.attempts !== undefined
      ? { structured_output: reply.output, schema_attempts: reply.attempts }
      : {}),
  };
  return { result, json: { ...reply.message, ...result } };
}

/** The result of a wait that timed out or never matched output_schema (the session read once more for its
 * pull requests; a failed read is a warning and none); undefined for any other end. */
export async function unanswered(
  agents: Agents,
  turn: Turn,
  error: unknown,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<Reported | undefined> {
  if (!(error instanceof TimeoutError) && !(error instanceof SchemaMismatchError)) return undefined;
  let session: Session | undefined;
  try {
    session = await agents.session(turn.sessionId, { signal, timeout: SESSION_READ_MS });
  } catch (err) {
    log(`warning: could not read the session's pull requests: ${errorMessage(err)}`);
  }
  const mismatch = error instanceof SchemaMismatchError ? error : undefined;
  const result: WaitResult = {
    session_id: turn.sessionId,
    thread_id: error.threadId ?? turn.threadId,
    session_html_url: session?.session_html_url || turn.url || null,
    status: mismatch ? 'schema_mismatch' : 'timed_out',
    final_message: mismatch ? mismatch.reply : null,
    pull_requests: Array.isArray(session?.pull_requests) ? session.pull_requests : [],
    ...(mismatch ? { schema_attempts: mismatch.attempts, schema_errors: mismatch.errors } : {}),
  };
  return { result, json: { ...result } };
}
