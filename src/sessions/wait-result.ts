// The result a CI job reads at the end of a create or send --wait: one object with the session and thread,
// the web address, how the wait ended, the final reply and the session's pull requests as they stand once
// the turn ended (one more GET, made only when the result is asked for: --json, or under GitHub Actions).
import type { ApiClient } from '../api/client.js';
import type { PullRequestRef } from '../api/types.js';
import type { WaitResult } from '../output/github.js';

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
