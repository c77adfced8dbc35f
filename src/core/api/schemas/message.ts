// The Message record (listed, and the answer to Send message): its types, its contract and the client's check.
import * as v from 'valibot';
import { LINK } from './session.js';
import { checked, field, kept, NOT_A_UUID, NOT_AN_ID, OPAQUE_ID, record, unexpected, UUID, without, type Same } from './fields.js';
import { MESSAGE_TYPES, ROLES, type MessageType, type Role } from './message-kinds.js';

/**
 * A message as a service sends it. `ts` is the provider's epoch-seconds timestamp and the `gts` cursor.
 * `id` and `task_id` are opaque strings (only compared); `chat_id` and `chat_thread_id` are UUIDs.
 */
export interface ListedMessage {
  /** Opaque: compared, never parsed. */
  id: string;
  /** The session; a list asked for one session may leave it out (Blocks' CI mock does). */
  chat_id?: string;
  /** Null for the live service's system notices (a sandbox warning): not part of the conversation. */
  chat_thread_id: string | null;
  /** The agent invocation; a list may leave it out. */
  task_id?: string;
  /** `user` or `assistant`. */
  role: Role;
  /** `message`, `final_message` (the turn's reply) or `tool_call`. */
  type: MessageType;
  /** The text (markdown; a tool call's JSON). */
  message: string;
  /** Epoch seconds; fractional on the live service. */
  ts: number | null;
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601. */
  updated_at: string;
  /** Fields the service adds, kept as they come. */
  [extra: string]: unknown;
}

/** A message of a session, as the client hands it on: `chat_id` filled in with the session asked for. */
export interface Message extends ListedMessage {
  /** The session. */
  chat_id: string;
}

// chat_id and chat_thread_id (put in URLs and references) are UUIDs when given; one that names another
// session is dropped by belongs.ts. A listed message is printed, so its text must be text.
const fields = {
  id: field(OPAQUE_ID, NOT_AN_ID),
  chat_id: field(v.optional(UUID), NOT_A_UUID),
  chat_thread_id: field(v.nullable(UUID), NOT_A_UUID, v.nullish(UUID)),
  task_id: field(v.optional(OPAQUE_ID), NOT_AN_ID, v.nullish(OPAQUE_ID)),
  role: kept(v.picklist(ROLES)),
  type: kept(v.picklist(MESSAGE_TYPES)),
  message: field(v.string(), without('text in message')),
  ts: kept(v.nullable(v.number())),
  created_at: kept(v.string()),
  updated_at: kept(v.string()),
};
export const MESSAGE = record('message', fields);

/** The answer to Send message: read only for its ids (its text may be left out). */
export const SENT_MESSAGE = record('message', {
  ...fields,
  message: field(v.string(), without('text in message'), v.nullish(v.string())),
  _links: kept(v.object({ self: LINK, thread: v.nullable(LINK), final_message: v.nullable(LINK) })),
});

void (true satisfies Same<ListedMessage, v.InferOutput<typeof MESSAGE.contract>>);

/** The response of Send message: the user message just posted, plus links for its new thread. */
export type SentMessage = Message & Pick<v.InferOutput<typeof SENT_MESSAGE.contract>, '_links'>;

export function asMessage(value: unknown): ListedMessage {
  return checked<ListedMessage>(MESSAGE, value);
}

/** The message's chat_id, or where it is left out, the session it was asked of (the answer is ours to fill). */
export function ofSession(m: ListedMessage, sessionId: string): Message {
  m.chat_id ??= sessionId;
  return m as Message;
}

/** The answer to Send message on session `sessionId`: the user message just posted. */
export function asSentMessage(value: unknown, sessionId: string): SentMessage {
  const sent = checked<SentMessage>(SENT_MESSAGE, value);
  if (sent.chat_id !== undefined && sent.chat_id.toLowerCase() !== sessionId.toLowerCase()) {
    throw unexpected(`a follow-up to session ${sessionId} was answered as one to session ${sent.chat_id}`);
  }
  return ofSession(sent, sessionId) as SentMessage;
}
