// The result a CI job reads at the end of a create or send --wait: one object with the session and thread,
// the web address, how the wait ended, the final reply and the session's pull requests as they stand once
// the turn ended (one more GET, made only when the result is asked for: --json, or under GitHub Actions).
import type { ApiClient } from '../api/client.js';
import type { PullRequestRef } from '../api/types.js';
import type { WaitResult } from '../events/ci-result.js';

/** How long the read of the session may take, even after the wait's own deadline ran out. */
const RESULT_READ_MS = 10_000;

/** The session as a turn's end left it: its pull requests, and its address when it gives one. */
export interface AfterTurn {
  pullRequests: (string | PullRequestRef)[];
  url: string | undefined;
}

/**
 * Reads the session once its turn ended, for its pull requests (every result of a wait has them: the CI
 * job's, the MCP tools'). The reply is in hand: a failed read is a warning and no pull requests.
 */
export async function sessionAfterTurn(
  client: ApiClient,
  sessionId: string,
  stop: AbortSignal,
  warn: (line: string) => void,
): Promise<AfterTurn> {
  try {
    const signal = AbortSignal.any([stop, AbortSignal.timeout(RESULT_READ_MS)]);
    // Urgent: the reply is in hand and waits on this read to be printed; when a fleet's jobs end together
    // and the key's budget is spent, it goes before their polls.
    const session = await client.getSession(sessionId, { signal, urgent: true });
    return {
      pullRequests: Array.isArray(session.pull_requests) ? session.pull_requests : [],
      url: session.session_html_url || undefined,
    };
  } catch (err) {
    warn(`could not read the session's pull requests: ${err instanceof Error ? err.message : String(err)}`);
    return { pullRequests: [], url: undefined };
  }
}

/** The result of a wait on `threadId` of `sessionId`; the session is read for its pull requests. */
export async function waitResult(
  client: ApiClient,
  stop: AbortSignal,
  w: { sessionId: string; threadId: string; url?: string; final: string | null },
  warn: (line: string) => void,
): Promise<WaitResult> {
  const after = await sessionAfterTurn(client, w.sessionId, stop, warn);
  return {
    session_id: w.sessionId,
    thread_id: w.threadId,
    session_html_url: after.url ?? w.url ?? null,
    status: w.final === null ? 'timed_out' : 'completed',
    final_message: w.final,
    pull_requests: after.pullRequests,
  };
}
