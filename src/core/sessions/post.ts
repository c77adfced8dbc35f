// Posting a turn: a new session with its first message, or a follow-up. create, send and chat all post
// here, so each gets the same deadline, the same account of a POST cut short (it may have been carried
// out: say so, never send it again), and the same record of `last` with what is known of the session.
import type { ApiClient } from '../api/client.js';
import { isHttpError, type HttpError } from '../api/errors.js';
import type { CreateSessionBody, SendMessageBody, SentMessage, Session } from '../api/types.js';
import { fromHttpError } from '../errors/cli-error.js';
import { TimeoutError } from '../errors/agents-error.js';
import {
  recordLast as recordLastSession,
  type LastSession,
  type UsedSession,
} from '../state/last-session.js';
import type { History } from '../state/history.js';
import type { Deadline } from './deadline.js';

/** A new session with its first message. */
export interface CreateTurn {
  kind: 'create';
  body: CreateSessionBody;
  /** `create --attempts`: which attempt of the group (body.session_group_id) this is, from 1. */
  attempt?: number;
}

/** A follow-up on a session. */
export interface SendTurn {
  kind: 'send';
  sessionId: string;
  body: SendMessageBody;
}

/** What to post. */
export type TurnPost = CreateTurn | SendTurn;

/** Where `last` is kept: the profile's history on the client's service. */
export type Bookkeeping = History;

/** A turn the service took. */
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

/**
 * A create or send POST that failed: when the deadline cut it short, exit 124 and say that it may have
 * been carried out (the service may have received it); anything else goes to the one mapping.
 */
export function postError(err: unknown, deadline: Deadline, what: 'session' | 'message'): never {
  if (isHttpError(err) && err.kind === 'aborted' && deadline.expired) {
    const mapped = fromHttpError(err);
    if (err.outcomeUnknown) {
      const lead = `timed out${deadline.after} before the service answered; the ${what} may have been created`;
      throw new TimeoutError(lead, { sessionId: created(err), hint: mapped.hint, cause: err });
    }
    throw new TimeoutError(
      `timed out${deadline.after}; the ${what} was not created (nothing the service acted on was sent)`,
      { sessionId: created(err), cause: err },
    );
  }
  throw err;
}

/** The session a cut-short follow-up was for (a create's session is not known). */
function created(err: HttpError): string | undefined {
  return err.creates?.what === 'message' ? err.creates.sessionId : undefined;
}

/**
 * Posts `turn` within `deadline` and records it as `last` where `books` says (ids are checked by the
 * client first). Without `books` (an MCP server, the Action) nothing is recorded.
 */
export async function postTurn(
  client: ApiClient,
  turn: CreateTurn,
  deadline: Deadline,
  books: Bookkeeping | undefined,
): Promise<Posted & { session: Session }>;
export async function postTurn(
  client: ApiClient,
  turn: SendTurn,
  deadline: Deadline,
  books: Bookkeeping | undefined,
): Promise<Posted & { sent: SentMessage }>;
export async function postTurn(
  client: ApiClient,
  turn: TurnPost,
  deadline: Deadline,
  books: Bookkeeping | undefined,
): Promise<Posted> {
  const o = { signal: deadline.signal };
  if (turn.kind === 'create') {
    const session = await client
      .createSession(turn.body, o)
      .catch((err: unknown) => postError(err, deadline, 'session'));
    const threadId = session.thread_id ?? undefined;
    // An attempt is recorded with its group, which `last` then names (see LastSession.group).
    const group = turn.attempt === undefined ? undefined : turn.body.session_group_id;
    const warning = await recordLast(
      books,
      { id: session.id, threadId, ...(group === undefined ? {} : { group }) },
      {
        title: session.title || undefined,
        agent: turn.body.agent_name,
        createdAt: session.created_at,
        web: session.session_html_url,
        state: 'working',
        group,
        attempt: turn.attempt,
      },
    );
    return { sessionId: session.id, threadId, session, warning };
  }
  const sent = await client
    .sendMessage(turn.sessionId, turn.body, o)
    .catch((err: unknown) => postError(err, deadline, 'message'));
  const threadId = sent.chat_thread_id ?? undefined;
  const warning = await recordLast(books, { id: turn.sessionId, threadId }, { state: 'working' });
  return { sessionId: turn.sessionId, threadId, sent, warning };
}

/** Records `last` as `books` says; nothing without them. */
function recordLast(
  books: Bookkeeping | undefined,
  entry: Omit<LastSession, 'at'>,
  facts: UsedSession,
): Promise<string | undefined> {
  if (books === undefined) return Promise.resolve(undefined);
  return recordLastSession(books, entry, facts);
}
