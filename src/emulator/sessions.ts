// Create session, Get session and Send message, and the Session / SentMessage views they answer with.
import type { Artifact, Message, Session, SentMessage } from '../core/api/types.js';
import { ARTIFACT, SENT_MESSAGE, SESSION, served } from '../core/api/schemas/index.js';
import { oneLine, parseDirectives, stripDirectives } from './directives.js';
import { apiError, json, type Reply } from './http.js';
import type { ArtifactRecord, SessionRecord, ThreadRecord } from './store.js';
import { startTurn } from './turn-player.js';
import type { Emulation } from './emulation.js';
import { checkCreate, checkSend, parseJsonObject } from './validate.js';

/** One authenticated request, as the handlers see it. */
export interface Call {
  /** Absolute base built from the request's Host, e.g. http://127.0.0.1:4010. */
  base: string;
  workspace: string;
  url: URL;
  body: Buffer;
  /** Path ids, lower-cased, already checked to be UUIDs. */
  params: string[];
  /** The session of the first path id, in the caller's workspace. */
  session: SessionRecord | undefined;
}

export const notFound = (what: string): Reply => apiError(404, 'NOT_FOUND', `${what} not found`);

const sessionPath = (base: string, id: string) => `${base}/rest/v1/sessions/${id}`;

/** The `thread` and `final_message` links of a turn. */
function turnLinks(base: string, sid: string, tid: string) {
  const thread = `${sessionPath(base, sid)}/threads/${tid}/messages`;
  return { thread: { href: thread }, final_message: { href: `${thread}?type=final_message&role=assistant` } };
}

/** The Session view; thread_id and the thread links only in the create response. */
export function sessionView(e: Emulation, r: SessionRecord, call: Call, created: boolean): Session {
  const tid = created ? r.firstThreadId : null;
  const d = e.dialect;
  const base = d.linkBase(call.base);
  const appUrl =
    e.opts.appUrl?.replace(/\/+$/, '') ?? (d.name === 'spec' ? call.base : 'https://blocks.team');
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
    session_html_url: d.htmlUrl(appUrl, r.workspace, r.id),
    _links: {
      self: { href: sessionPath(base, r.id) },
      messages: { href: `${sessionPath(base, r.id)}/messages` },
      ...(tid ? turnLinks(base, r.id, tid) : { thread: null, final_message: null }),
    },
  };
  if (d.sessionExtras) {
    view.plan_artifact_ids = e.store.planArtifactIds(r);
    view.session_group_id = r.sessionGroupId ?? null;
  }
  return served(SESSION, view);
}

/** A title from the first words of the message, directives and control characters left out. */
export function titleFrom(message: string): string {
  const title = oneLine(stripDirectives(message), 1000).split(' ').slice(0, 8).join(' ');
  return title === '' ? 'Untitled session' : oneLine(title, 60);
}

/** Stores the user's message on `thread` and starts the agent's turn it asks for. */
function userMessage(e: Emulation, record: SessionRecord, thread: ThreadRecord, text: string): Message {
  // The live service stamps user messages too (fractional seconds; whole ones for a turn stored in one
  // instant, as its replies are); the spec's are typically null.
  const whole = parseDirectives(text).instant;
  const ts = e.dialect.fractionalTs ? (ms: number) => (whole ? Math.floor(ms / 1000) : ms / 1000) : undefined;
  const msg = e.store.store(record, {
    threadId: thread.id,
    taskId: thread.taskId,
    role: 'user',
    type: 'message',
    message: text,
    ts,
  });
  startTurn(e, record, thread, text);
  return msg;
}

export function createSession(e: Emulation, call: Call): Reply {
  const parsed = parseJsonObject(call.body);
  if (!parsed.ok) return apiError(400, 'BAD_REQUEST', parsed.error);
  const checked = checkCreate(parsed.value, e.dialect.sisyphus);
  if (!checked.ok) return apiError(e.dialect.validationStatus, 'VALIDATION', checked.error);
  const body = checked.value;
  const label = body.agent_name ?? (body.agent_id ? `agent ${body.agent_id.slice(0, 8)}` : 'profile agent');
  const title = body.title ?? titleFrom(body.message);
  const record = e.store.createSession(call.workspace, title, body.is_private ?? false, label);
  record.sessionGroupId = body.session_group_id?.toLowerCase();
  e.stats.sessionsCreated += 1;
  // [[orphan]]: the message is lost on the way to the agent, leaving a session with no messages at all.
  if (!parseDirectives(body.message).orphan) {
    userMessage(e, record, record.threads.get(record.firstThreadId)!, body.message);
  }
  return json(e.dialect.createdStatus, sessionView(e, record, call, true));
}

export function getSession(e: Emulation, call: Call): Reply {
  return call.session ? json(200, sessionView(e, call.session, call, false)) : notFound('Session');
}

export function sendMessage(e: Emulation, call: Call): Reply {
  const parsed = parseJsonObject(call.body);
  if (!parsed.ok) return apiError(400, 'BAD_REQUEST', parsed.error);
  const record = call.session;
  if (!record) return notFound('Session');
  const checked = checkSend(parsed.value);
  if (!checked.ok) return apiError(e.dialect.validationStatus, 'VALIDATION', checked.error);
  if (record.messages.length === 0) {
    return apiError(400, 'BAD_REQUEST', 'Session has no messages, so no task can be resolved');
  }
  const thread = e.store.addThread(record);
  const msg = userMessage(e, record, thread, checked.value.message);
  e.stats.followUps += 1;
  const base = e.dialect.linkBase(call.base);
  const sent: SentMessage = {
    ...msg,
    _links: {
      self: { href: `${sessionPath(base, record.id)}/messages` },
      ...turnLinks(base, record.id, thread.id),
    },
  };
  return json(e.dialect.createdStatus, served(SENT_MESSAGE, sent));
}

/** An artifact's record, its link presigned (Get artifact) or bare (the addArtifact hook). */
export function artifactView(e: Emulation, a: ArtifactRecord, presigned: boolean): Artifact {
  const link = `${e.artifactHost.url}/${a.token}/${encodeURIComponent(a.fileName)}`;
  const expires = Math.floor((Date.now() + e.artifactTtlMs) / 1000);
  return {
    id: a.id,
    url: presigned ? `${link}?X-Amz-Expires=${expires}&X-Amz-Signature=${a.token.slice(0, 16)}` : link,
    file_name: a.fileName,
    file_path: `/workspace/${a.fileName}`,
    file_size_in_kb: Math.ceil(a.content.length / 1024),
    mime_type: a.mimeType,
    kind: a.kind,
    plan_id: a.planId,
    created_at: a.createdAt,
  };
}

/** Get artifact (live service): its record with a presigned download link on another host. */
export function getArtifact(e: Emulation, call: Call): Reply {
  const record = call.session;
  if (!record) return notFound('Session');
  const a = record.artifacts.find((x) => x.id === call.params[1]);
  return a ? json(200, served(ARTIFACT, artifactView(e, a, true))) : notFound('Artifact');
}
