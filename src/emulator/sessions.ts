// Create session, Get session and Send message, and the Session / SentMessage views they answer with.
import type { Artifact, Session, SentMessage } from '../core/api/types.js';
import { ARTIFACT, SENT_MESSAGE, SESSION, served } from '../core/api/schemas/index.js';
import { oneLine, parseDirectives, stripDirectives } from './directives.js';
import { apiError, json, type Reply } from './http.js';
import type { SessionRecord, Store } from './store.js';
import { startTurn, type TurnEnv } from './turn-player.js';
import type { EmulatorStats } from './surface.js';
import type { Dialect } from './dialect.js';
import { checkCreate, checkSend, parseJsonObject, type RepeatedParams } from './validate.js';
import type { Misbehaviour } from './misbehave.js';

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
  dialect: Dialect;
  /** Base URL of the presigned download host. */
  artifactsBase: string;
  /** How long a download link stays valid, in ms. */
  artifactTtlMs: number;
}

/** What the handlers share: the store, the turn player and the counters. */
export interface Service {
  store: Store;
  turns: TurnEnv;
  stats: EmulatorStats;
  /** How a parameter typed as one string is read when repeated. */
  repeatedParams: RepeatedParams;
  /** The broken answers switched on (misbehave.ts). */
  misbehave: Misbehaviour;
}

export const notFound = (what: string): Reply => apiError(404, 'NOT_FOUND', `${what} not found`);

const sessionPath = (base: string, id: string) => `${base}/rest/v1/sessions/${id}`;
const threadPath = (base: string, sid: string, tid: string) =>
  `${sessionPath(base, sid)}/threads/${tid}/messages`;
const finalPath = (base: string, sid: string, tid: string) =>
  `${threadPath(base, sid, tid)}?type=final_message&role=assistant`;

/** The Session view; thread_id and the thread links only in the create response. */
export function sessionView(svc: Service, r: SessionRecord, call: Call, created: boolean): Session {
  const tid = created ? r.firstThreadId : null;
  const d = call.dialect;
  const base = d.linkBase(call.base);
  const view: Session = {
    id: r.id,
    title: r.title,
    pull_requests: r.pullRequests.map((pr) => d.pullRequest(pr.url, pr.status)),
    source_url: null,
    is_archived: false,
    is_private: r.isPrivate,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    thread_id: tid,
    session_html_url: d.htmlUrl(call.appUrl, r.workspace, r.id),
    _links: {
      self: { href: sessionPath(base, r.id) },
      messages: { href: `${sessionPath(base, r.id)}/messages` },
      thread: tid ? { href: threadPath(base, r.id, tid) } : null,
      final_message: tid ? { href: finalPath(base, r.id, tid) } : null,
    },
  };
  if (d.sessionExtras) {
    view.plan_artifact_ids = svc.store.planArtifactIds(r);
    view.session_group_id = r.sessionGroupId ?? null;
  }
  return served(SESSION, view);
}

/** A title from the first words of the message, directives and control characters left out. */
export function titleFrom(message: string): string {
  const title = oneLine(stripDirectives(message), 1000).split(' ').slice(0, 8).join(' ');
  return title === '' ? 'Untitled session' : oneLine(title, 60);
}

export function createSession(svc: Service, call: Call): Reply {
  const parsed = parseJsonObject(call.body);
  if (!parsed.ok) return apiError(400, 'BAD_REQUEST', parsed.error);
  const checked = checkCreate(parsed.value, call.dialect.sisyphus);
  if (!checked.ok) return apiError(call.dialect.validationStatus, 'VALIDATION', checked.error);
  const body = checked.value;
  const label = body.agent_name ?? (body.agent_id ? `agent ${body.agent_id.slice(0, 8)}` : 'profile agent');
  const record = svc.store.createSession(
    call.workspace,
    body.title ?? titleFrom(body.message),
    body.is_private ?? false,
    label,
  );
  record.sessionGroupId = body.session_group_id?.toLowerCase();
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
      ts: userTs(call.dialect, body.message),
    });
    startTurn(svc.turns, record, thread, body.message);
  }
  return json(call.dialect.createdStatus, sessionView(svc, record, call, true));
}

/**
 * The live service stamps user messages too (fractional seconds; whole ones for a turn stored in one
 * instant, as its replies are); the spec's are typically null.
 */
function userTs(d: Dialect, text: string): ((createdMs: number) => number) | undefined {
  if (!d.fractionalTs) return undefined;
  return parseDirectives(text).instant ? (ms) => Math.floor(ms / 1000) : (ms) => ms / 1000;
}

export function getSession(svc: Service, call: Call): Reply {
  const record = svc.store.find(call.workspace, call.params[0] ?? '');
  return record ? json(200, sessionView(svc, record, call, false)) : notFound('Session');
}

export function sendMessage(svc: Service, call: Call): Reply {
  const parsed = parseJsonObject(call.body);
  if (!parsed.ok) return apiError(400, 'BAD_REQUEST', parsed.error);
  const record = svc.store.find(call.workspace, call.params[0] ?? '');
  if (!record) return notFound('Session');
  const checked = checkSend(parsed.value);
  if (!checked.ok) return apiError(call.dialect.validationStatus, 'VALIDATION', checked.error);
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
    ts: userTs(call.dialect, text),
  });
  startTurn(svc.turns, record, thread, text);
  svc.stats.followUps += 1;
  const base = call.dialect.linkBase(call.base);
  const sent: SentMessage = {
    ...msg,
    _links: {
      self: { href: `${sessionPath(base, record.id)}/messages` },
      thread: { href: threadPath(base, record.id, thread.id) },
      final_message: { href: finalPath(base, record.id, thread.id) },
    },
  };
  return json(call.dialect.createdStatus, served(SENT_MESSAGE, sent));
}

/** Get artifact (live service): its record with a presigned download link on another host. */
export function getArtifact(svc: Service, call: Call): Reply {
  const record = svc.store.find(call.workspace, call.params[0] ?? '');
  if (!record) return notFound('Session');
  const a = record.artifacts.find((x) => x.id === call.params[1]);
  if (!a) return notFound('Artifact');
  const expires = Math.floor((Date.now() + call.artifactTtlMs) / 1000);
  const view: Artifact = {
    id: a.id,
    url: `${call.artifactsBase}/${a.token}/${encodeURIComponent(a.fileName)}?X-Amz-Expires=${expires}&X-Amz-Signature=${a.token.slice(0, 16)}`,
    file_name: a.fileName,
    file_path: `/workspace/${a.fileName}`,
    file_size_in_kb: Math.ceil(a.content.length / 1024),
    mime_type: a.mimeType,
    kind: a.kind,
    plan_id: a.planId,
    created_at: a.createdAt,
  };
  return json(200, served(ARTIFACT, view));
}
