// Create session, Get session and Send message, and the Session / SentMessage views they answer with.
import type { Session, SentMessage } from '../api/types.js';
import { oneLine, parseDirectives, stripDirectives } from './directives.js';
import { apiError, json, type Reply } from './http.js';
import type { SessionRecord, Store } from './store.js';
import { startTurn, type TurnEnv } from './turns.js';
import type { EmulatorStats } from './types.js';
import { checkCreate, checkSend, parseJsonObject } from './validate.js';

/** One authenticated request, as the handlers see it. */
export interface Call {
  /** Absolute base built from the request's Host, e.g. http://127.0.0.1:4010. */
  base: string;
  appUrl: string;
  workspace: string;
  url: URL;
  body: Buffer;
  /** Path ids, lower-cased, already checked to be UUIDs. */
  params: string[];
}

/** What the handlers share: the store, the turn player and the counters. */
export interface Service {
  store: Store;
  turns: TurnEnv;
  stats: EmulatorStats;
}

export const notFound = (what: string): Reply => apiError(404, 'NOT_FOUND', `${what} not found`);

const sessionPath = (base: string, id: string) => `${base}/rest/v1/sessions/${id}`;
const threadPath = (base: string, sid: string, tid: string) =>
  `${sessionPath(base, sid)}/threads/${tid}/messages`;
const finalPath = (base: string, sid: string, tid: string) =>
  `${threadPath(base, sid, tid)}?type=final_message&role=assistant`;

/** The Session view; thread_id and the thread links only in the create response. */
export function sessionView(r: SessionRecord, call: Call, created: boolean): Session {
  const tid = created ? r.firstThreadId : null;
  return {
    id: r.id,
    title: r.title,
    pull_requests: [],
    source_url: null,
    is_archived: false,
    is_private: r.isPrivate,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    thread_id: tid,
    session_html_url: `${call.appUrl}/app/sessions/${r.id}`,
    _links: {
      self: { href: sessionPath(call.base, r.id) },
      messages: { href: `${sessionPath(call.base, r.id)}/messages` },
      thread: tid ? { href: threadPath(call.base, r.id, tid) } : null,
      final_message: tid ? { href: finalPath(call.base, r.id, tid) } : null,
    },
  };
}

/** A title from the first words of the message, directives and control characters left out. */
export function titleFrom(message: string): string {
  const title = oneLine(stripDirectives(message), 1000).split(' ').slice(0, 8).join(' ');
  return title === '' ? 'Untitled session' : oneLine(title, 60);
}

export function createSession(svc: Service, call: Call): Reply {
  const parsed = parseJsonObject(call.body);
  if (!parsed.ok) return apiError(400, 'BAD_REQUEST', parsed.error);
  const checked = checkCreate(parsed.value);
  if (!checked.ok) return apiError(400, 'VALIDATION', checked.error);
  const body = checked.value;
  const label = body.agent_name ?? (body.agent_id ? `agent ${body.agent_id.slice(0, 8)}` : 'profile agent');
  const record = svc.store.createSession(
    call.workspace,
    titleFrom(body.message),
    body.is_private ?? false,
    label,
  );
  svc.stats.sessionsCreated += 1;
  const thread = record.threads.get(record.firstThreadId);
  // [[orphan]]: the message is lost on the way to the agent, leaving a session with no messages at all.
  if (thread && !parseDirectives(body.message).orphan) {
    svc.store.store(record, {
      threadId: thread.id,
      taskId: thread.taskId,
      role: 'user',
      type: 'message',
      message: body.message,
    });
    startTurn(svc.turns, record, thread, body.message);
  }
  return json(201, sessionView(record, call, true));
}

export function getSession(svc: Service, call: Call): Reply {
  const record = svc.store.find(call.workspace, call.params[0] ?? '');
  return record ? json(200, sessionView(record, call, false)) : notFound('Session');
}

export function sendMessage(svc: Service, call: Call): Reply {
  const parsed = parseJsonObject(call.body);
  if (!parsed.ok) return apiError(400, 'BAD_REQUEST', parsed.error);
  const record = svc.store.find(call.workspace, call.params[0] ?? '');
  if (!record) return notFound('Session');
  const checked = checkSend(parsed.value);
  if (!checked.ok) return apiError(400, 'VALIDATION', checked.error);
  if (record.messages.length === 0) {
    return apiError(400, 'BAD_REQUEST', 'Session has no messages, so no task can be resolved');
  }
  const thread = svc.store.addThread(record);
  const text = checked.value.message;
  const msg = svc.store.store(record, {
    threadId: thread.id,
    taskId: thread.taskId,
    role: 'user',
    type: 'message',
    message: text,
  });
  startTurn(svc.turns, record, thread, text);
  svc.stats.followUps += 1;
  const sent: SentMessage = {
    ...msg,
    _links: {
      self: { href: `${sessionPath(call.base, record.id)}/messages` },
      thread: { href: threadPath(call.base, record.id, thread.id) },
      final_message: { href: finalPath(call.base, record.id, thread.id) },
    },
  };
  return json(201, sent);
}
