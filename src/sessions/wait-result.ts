// The result a CI job reads at the end of a create or send --wait: one object with the session and thread,
// the web address, how the wait ended, the final reply and the session's pull requests as they stand once
// the turn ended (one more GET, made only when the result is asked for: --json, or under GitHub Actions).
import type { ApiClient } from '../api/client.js';
import type { PullRequestRef } from '../api/types.js';
import type { SchemaError } from './answer-json.js';

/** How a wait ended, as a CI job reads it (--wait --json, the step summary and outputs, the Action). */
export interface WaitResult {
  session_id: string;
  thread_id: string | null;
  session_html_url: string | null;
  /** schema_mismatch: the reply never matched --output-schema, however often it was asked for again. */
  status: 'completed' | 'timed_out' | 'schema_mismatch';
  /** The final reply's text; null when the wait timed out. */
  final_message: string | null;
  /** As the session lists them after the turn (strings or `{url, status}` objects). */
  pull_requests: (string | PullRequestRef)[];
  /** With --output-schema, once matched: the value taken from the reply. */
  structured_output?: unknown;
  /** With --output-schema: how many replies were checked (the first, then one per follow-up). */
  schema_attempts?: number;
  /** With --output-schema, never matched: what was wrong with the last reply. */
  schema_errors?: SchemaError[];
}

/** How long the read of the session may take, even after the command's own deadline ran out. */
const RESULT_READ_MS = 10_000;

/** The result of a wait on `threadId` of `sessionId`; the session is read for its pull requests. */
export async function waitResult(
  client: ApiClient,
  stop: AbortSignal,
  w: { sessionId: string; threadId: string; url?: string; final: string | null },
  warn: (line: string) => void,
): Promise<WaitResult> {
  let pullRequests: (string | PullRequestRef)[] = [];
  let url = w.url ?? null;
  try {
    const signal = AbortSignal.any([stop, AbortSignal.timeout(RESULT_READ_MS)]);
    // Urgent: the reply is in hand and waits on this read to be printed; when a fleet's jobs end together
    // and the key's budget is spent, it goes before their polls.
    const session = await client.getSession(w.sessionId, { signal, urgent: true });
    pullRequests = Array.isArray(session.pull_requests) ? session.pull_requests : [];
    url = session.session_html_url || url;
  } catch (err) {
    // The reply is in hand: a failed read of the pull requests must not turn it into a failure.
    warn(`could not read the session's pull requests: ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    session_id: w.sessionId,
    thread_id: w.threadId,
    session_html_url: url,
    status: w.final === null ? 'timed_out' : 'completed',
    final_message: w.final,
    pull_requests: pullRequests,
  };
}
