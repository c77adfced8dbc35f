// What an answer must be before anything of it is printed, stored or put in an address: shapes checked
// lightly (a wrong endpoint or a gateway's JSON is reported as such), ids by what the client does with
// them, and ids that name what was asked for must name it.
import { HttpError } from './errors.js';
import { isUuid } from '../util/uuid.js';
import { isObject } from '../util/json.js';
import { escapeForLine } from '../util/text.js';
import type { Artifact, ListedMessage, MessagePage, SentMessage, Session } from './types.js';

function unexpected(message: string): HttpError {
  return new HttpError({ kind: 'unexpected', status: 200, message: `unexpected answer: ${message}` });
}

function shapeError(what: string, missing: string): HttpError {
  return unexpected(`a ${what} without ${missing}`);
}

/** The value as one harmless, short line: JSON notation for control characters, cut at 80. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value));
  const safe = escapeForLine(text);
  return safe.length > 80 ? `${safe.slice(0, 79)}…` : safe;
}

/** Throws unless `value` is a UUID (or null, where `nullable`), naming the field and showing the value. */
function checkId(what: string, field: string, value: unknown, nullable = false): void {
  if (nullable && value === null) return;
  if (typeof value === 'string' && isUuid(value)) return;
  throw unexpected(`the ${what}'s ${field} is not a UUID: ${value === undefined ? 'missing' : shown(value)}`);
}

/** The longest message or task id taken: enough for any real id, bounded so none can swell an answer. */
// A session's, thread's or artifact's id is echoed to stdout (`id=$(agents create …)`), kept as `last` and
// put in paths and URLs, so it must be a UUID: a server that sends `../../` and an escape sequence reaches
// none of those. A message's or task's is only compared (to see a message once) and printed through the
// terminal sanitizer, so it is opaque: any non-empty string of bounded length, as test servers in the wild
// send (`m1`, `task-1`).
export const MAX_OPAQUE_ID = 200;

/** Throws unless `value` is an opaque id: a non-empty string of at most MAX_OPAQUE_ID characters. */
function checkOpaqueId(what: string, field: string, value: unknown): void {
  if (typeof value === 'string' && value !== '' && value.length <= MAX_OPAQUE_ID) return;
  const why = `not an id (a non-empty string of at most ${MAX_OPAQUE_ID} characters)`;
  throw unexpected(`the ${what}'s ${field} is ${why}: ${value === undefined ? 'missing' : shown(value)}`);
}

const isText = (v: unknown) => typeof v === 'string';
const isTextOrNone = (v: unknown) => v === undefined || v === null || typeof v === 'string';

/** A session; `asked` is the id it must have (Get session). */
export function asSession(value: unknown, asked?: string): Session {
  if (!isObject(value)) throw shapeError('session', 'an id');
  checkId('session', 'id', value.id);
  if (asked !== undefined && String(value.id).toLowerCase() !== asked.toLowerCase()) {
    throw unexpected(`asked for session ${asked}, the service answered with session ${String(value.id)}`);
  }
  if (!isTextOrNone(value.title) || !isTextOrNone(value.session_html_url)) {
    throw shapeError('session', 'text in title and session_html_url');
  }
  if (value.thread_id !== undefined) checkId('session', 'thread_id', value.thread_id, true);
  if (value.plan_artifact_ids !== undefined && value.plan_artifact_ids !== null) {
    if (!Array.isArray(value.plan_artifact_ids)) throw shapeError('session', 'a list in plan_artifact_ids');
    for (const id of value.plan_artifact_ids) checkId('session', 'plan_artifact_ids', id);
  }
  return value as unknown as Session;
}

/**
 * A message. `sent`: the answer to Send message, read only for its ids (its text may be left out); a
 * listed message is printed, so its text must be text. Its id and task_id are opaque; chat_id (a session)
 * and chat_thread_id (a thread, put in URLs and references) are UUIDs when given. A list may leave chat_id
 * out (it was asked for one session); one that names another session is dropped by belongs.ts.
 */
export function asMessage(value: unknown, sent = false): ListedMessage {
  if (!isObject(value)) throw shapeError('message', 'an id');
  checkOpaqueId('message', 'id', value.id);
  if (value.task_id !== undefined && value.task_id !== null)
    checkOpaqueId('message', 'task_id', value.task_id);
  if (value.chat_id !== undefined) checkId('message', 'chat_id', value.chat_id);
  checkId('message', 'chat_thread_id', value.chat_thread_id ?? null, true);
  const textOk = sent ? isTextOrNone(value.message) : isText(value.message);
  if (!textOk) throw shapeError('message', 'text in message');
  return value as unknown as ListedMessage;
}

/** The message's chat_id, or where it is left out, the session it was asked of (the answer is ours to fill). */
function ofSession(m: ListedMessage, sessionId: string): void {
  m.chat_id ??= sessionId;
}

/** The answer to Send message on session `sessionId`: the user message just posted. */
export function asSentMessage(value: unknown, sessionId: string): SentMessage {
  const sent = asMessage(value, true);
  if (sent.chat_id !== undefined && sent.chat_id.toLowerCase() !== sessionId.toLowerCase()) {
    throw unexpected(`a follow-up to session ${sessionId} was answered as one to session ${sent.chat_id}`);
  }
  ofSession(sent, sessionId);
  return sent as SentMessage;
}

/** An artifact record; `asked` is the id it must have. */
export function asArtifact(value: unknown, asked: string): Artifact {
  if (!isObject(value)) throw shapeError('artifact', 'an id');
  checkId('artifact', 'id', value.id);
  if (String(value.id).toLowerCase() !== asked.toLowerCase()) {
    throw unexpected(`asked for artifact ${asked}, the service answered with artifact ${String(value.id)}`);
  }
  if (typeof value.url !== 'string') throw shapeError('artifact', 'a download url');
  return value as unknown as Artifact;
}

/**
 * One page of a message list of session `sessionId`. A message that leaves out its chat_id is given that
 * session's (the list was asked for it); one that names another is left for belongs.ts to drop.
 */
export function asMessagePage(value: unknown, sessionId: string): MessagePage {
  if (!isObject(value) || !Array.isArray(value.items)) throw shapeError('message list', 'items');
  value.items.forEach((item) => ofSession(asMessage(item), sessionId));
  if (!isObject(value.meta)) throw shapeError('message list', 'meta');
  // Paging ends by these counts: a non-number would page (or poll) forever.
  const { total, total_pages } = value.meta;
  if (typeof total !== 'number' || typeof total_pages !== 'number' || Number.isNaN(total + total_pages)) {
    throw shapeError('message list', 'numeric meta.total and meta.total_pages');
  }
  return value as unknown as MessagePage;
}
