// Posting a turn (create, send, chat): the same deadline, the same account of a POST cut short (it may have
// been carried out: say so, never send it again), the same record of `last`.
import type { ApiClient } from '../api/client.js';
import { isHttpError } from '../api/errors.js';
import type { CreateSessionBody, SendMessageBody, SentMessage, Session } from '../api/types.js';
import { fromHttpError } from '../errors/cli-error.js';
import { TimeoutError } from '../errors/agents-error.js';
import { recordLast } from '../state/last-session.js';
import type { History } from '../state/history.js';
import type { Deadline } from './deadline.js';

export type TurnPost =
  /** `attempt`, for `create --attempts`: which attempt of the group (body.session_group_id) this is, from 1. */
  | { kind: 'create'; body: CreateSessionBody; attempt?: number }
  | { kind: 'send'; sessionId: string; body: SendMessageBody };

export interface Posted {
  sessionId: string;
  /** The new turn's thread, when the answer named one. */
  threadId: string | undefined;
  /** create: the new session. */
  session?: Session;
  /** send: the user message just posted. */
  sent?: SentMessage;
  /** `last` could not be recorded (the turn was posted all the same). */
  warning?: string;
}

type PostedFor<T> = Posted & (T extends { kind: 'create' } ? { session: Session } : { sent: SentMessage });

/** A POST cut short by the deadline: exit 124, saying whether the service may have carried it out. */
function postError(err: unknown, deadline: Deadline, what: 'session' | 'message'): never {
  if (!(isHttpError(err) && err.kind === 'aborted' && deadline.expired)) throw err;
  // A create's session is not known; a follow-up's is.
  const sessionId = err.creates?.what === 'message' ? err.creates.sessionId : undefined;
  const lead = err.outcomeUnknown
    ? `timed out${deadline.after} before the service answered; the ${what} may have been created`
    : `timed out${deadline.after}; the ${what} was not created (nothing the service acted on was sent)`;
  const hint = err.outcomeUnknown ? fromHttpError(err).hint : undefined;
  throw new TimeoutError(lead, { sessionId, hint, cause: err });
}

/** Posts `turn` within `deadline`, recorded as `last` in `books` (none for an MCP server, the Action). */
export async function postTurn<T extends TurnPost>(
  client: ApiClient,
  turn: T,
  deadline: Deadline,
  books: History | undefined,
): Promise<PostedFor<T>> {
  const o = { signal: deadline.signal };
  if (turn.kind === 'create') {
    const session = await client
      .createSession(turn.body, o)
      .catch((err: unknown) => postError(err, deadline, 'session'));
    const threadId = session.thread_id ?? undefined;
    const { body, attempt } = turn;
    const { title, created_at: createdAt, session_html_url: web } = session;
    // An attempt is recorded with its group, which `last` then names (see LastSession.group).
    const group = attempt === undefined ? undefined : body.session_group_id;
    const last = { id: session.id, threadId, ...(group === undefined ? {} : { group }) };
    const facts = { title: title || undefined, agent: body.agent_name, createdAt, web, group, attempt };
    const warning = books && (await recordLast(books, last, { ...facts, state: 'working' }));
    return { sessionId: session.id, threadId, session, warning } as PostedFor<T>;
  }
  const sent = await client
    .sendMessage(turn.sessionId, turn.body, o)
    .catch((err: unknown) => postError(err, deadline, 'message'));
  const threadId = sent.chat_thread_id ?? undefined;
  const warning = books && (await recordLast(books, { id: turn.sessionId, threadId }, { state: 'working' }));
  return { sessionId: turn.sessionId, threadId, sent, warning } as PostedFor<T>;
}
