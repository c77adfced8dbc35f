// The result a CI job reads at the end of a --wait: the session, thread, address, how the wait ended, the
// final reply and the session's pull requests once the turn ended (one more GET, only when asked for).
import type { ApiClient } from '../api/client.js';
import type { PullRequestRef } from '../api/types.js';
import type { WaitResult } from '../events/ci-result.js';
import { errorMessage } from '../../util/text.js';

/** How long the read of the session may take, even after the wait's own deadline ran out. */
const RESULT_READ_MS = 10_000;

/** The session once its turn ended, for its pull requests; the reply is in hand: a failed read warns. */
export async function sessionAfterTurn(
  client: ApiClient,
  sessionId: string,
  stop: AbortSignal,
  warn: (line: string) => void,
): Promise<{ pullRequests: (string | PullRequestRef)[]; url: string | undefined }> {
  try {
    const signal = AbortSignal.any([stop, AbortSignal.timeout(RESULT_READ_MS)]);
    // Urgent: the reply waits on this read to be printed; with the key's budget spent, it goes before polls.
    const session = await client.getSession(sessionId, { signal, urgent: true });
    const pullRequests = Array.isArray(session.pull_requests) ? session.pull_requests : [];
    return { pullRequests, url: session.session_html_url || undefined };
  } catch (err) {
    warn(`could not read the session's pull requests: ${errorMessage(err)}`);
    return { pullRequests: [], url: undefined };
  }
}

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
