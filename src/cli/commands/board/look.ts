// What the board asks the service about one session: a look (the session, then its latest turn) or a poll.
import type { ApiClient } from '../../../core/api/client.js';
import { isHttpError } from '../../../core/api/errors.js';
import { isFinalReply } from '../../../core/conversation/turn-state.js';
import { pullRequestUrls } from '../../input/pull-request-choice.js';
import { latestUserMessage } from '../../../core/sessions/latest.js';
import type { BoardRow } from './rows.js';

export type Learnt = { facts: Partial<BoardRow>; requests: number };

/** Replies listed per poll: the live service repeats a thread's final as its last `message`. */
const NEWEST = 5;

async function latestTurn(
  client: ApiClient,
  row: Pick<BoardRow, 'id' | 'threadId'>,
  signal: AbortSignal,
): Promise<Learnt> {
  let requests = 0;
  let threadId = row.threadId;
  let promptAt: string | undefined;
  if (threadId === undefined) {
    requests += 1;
    const prompt = await latestUserMessage(client, { sessionId: row.id }, { signal });
    threadId = prompt?.chat_thread_id ?? undefined;
    promptAt = prompt?.created_at;
    if (threadId === undefined) return { facts: { state: 'unknown' }, requests };
  }
  const target = { sessionId: row.id, threadId };
  requests += 1;
  const page = await client.listMessages(
    target,
    { role: 'assistant', type: ['message', 'final_message'], direction: 'desc', limit: NEWEST },
    { signal },
  );
  const mine = page.items.filter((m) => client.belongs(target, m));
  const newest = mine[0];
  const facts: Partial<BoardRow> = { threadId, state: mine.some(isFinalReply) ? 'finished' : 'working' };
  if (newest !== undefined) {
    facts.latest = newest.message;
    facts.lastAt = newest.created_at;
  } else if (promptAt !== undefined) facts.lastAt = promptAt;
  return { facts, requests };
}

/**
 * Asks about a session: with `whole`, the session first (title, group, pull request), then its latest
 * turn. A session the service no longer has is 'failed'; any other failure is thrown.
 */
export async function lookAt(
  client: ApiClient,
  row: Pick<BoardRow, 'id' | 'threadId'>,
  whole: boolean,
  signal: AbortSignal,
): Promise<Learnt> {
  let requests = 0;
  const facts: Partial<BoardRow> = {};
  try {
    if (whole) {
      requests += 1;
      const session = await client.getSession(row.id, { signal });
      if (session.title) facts.title = session.title;
      if (session.session_html_url) facts.web = session.session_html_url;
      if (typeof session.session_group_id === 'string') facts.group = session.session_group_id.toLowerCase();
      const prs = pullRequestUrls(session);
      if (prs.length > 0) facts.pr = prs[prs.length - 1];
    }
    const turn = await latestTurn(client, row, signal);
    return { facts: { ...facts, ...turn.facts }, requests: requests + turn.requests };
  } catch (err) {
    if (isHttpError(err) && err.kind === 'not_found') return { facts: { state: 'failed' }, requests };
    throw err;
  }
}
