// What the board asks the service about one session: a look (the session, then its latest turn) or a poll.
import {
  type ApiClient,
  isFinalReply,
  isHttpError,
  latestUserMessage,
  sessionPullRequests,
} from '../../../core/index.js';
import type { BoardRow } from './rows.js';

/** Replies listed per poll: the live service repeats a thread's final as its last `message`. */
const NEWEST = 5;

/** With `whole` the session (title, group, pull request), then its latest turn; a 404 makes it 'failed'. */
export async function lookAt(
  client: ApiClient,
  row: Pick<BoardRow, 'id' | 'threadId'>,
  whole: boolean,
  signal: AbortSignal,
): Promise<{ facts: Partial<BoardRow>; requests: number }> {
  let requests = 0;
  const facts: Partial<BoardRow> = {};
  try {
    if (whole) {
      requests += 1;
      const session = await client.getSession(row.id, { signal });
      if (session.title) facts.title = session.title;
      if (session.session_html_url) facts.web = session.session_html_url;
      if (typeof session.session_group_id === 'string') facts.group = session.session_group_id.toLowerCase();
      const prs = sessionPullRequests(session);
      if (prs.length > 0) facts.pr = prs[prs.length - 1]!.url;
    }
    let threadId = row.threadId;
    if (threadId === undefined) {
      requests += 1;
      const prompt = await latestUserMessage(client, { sessionId: row.id }, { signal });
      threadId = prompt?.chat_thread_id ?? undefined;
      if (threadId === undefined) return { facts: { ...facts, state: 'unknown' }, requests };
      if (prompt?.created_at !== undefined) facts.lastAt = prompt.created_at;
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
    if (newest !== undefined) Object.assign(facts, { latest: newest.message, lastAt: newest.created_at });
    return {
      facts: { ...facts, threadId, state: mine.some(isFinalReply) ? 'finished' : 'working' },
      requests,
    };
  } catch (err) {
    if (isHttpError(err) && err.kind === 'not_found') return { facts: { state: 'failed' }, requests };
    throw err;
  }
}
