// Answers a broken or hostile server gives on purpose, so the client's suite shows it believes an answer only
// as far as it proves itself. Each off by default; `setMisbehaviour` changes them.
import type { ServerResponse } from 'node:http';
import { json, type Reply } from './http.js';

/** Which GETs a body misbehaviour applies to. */
export type MisbehavingRoute = 'session' | 'list' | 'any-get';

/** The ways the emulator can answer badly; every field is off when absent. */
export interface Misbehaviour {
  /** Message lists ignore the thread (the threaded path and `thread_id`): the session's whole list. */
  ignoreThreadFilter?: boolean;
  /** Message lists of a session also carry the workspace's other sessions' messages. */
  ignoreSessionFilter?: boolean;
  /** The matching GETs answer 200, then stream one JSON string without end (64 KiB chunks, as read). */
  endlessBody?: MisbehavingRoute;
  /** The matching GETs (the first `requests` of them) send their body a byte every `everyMs`. */
  trickle?: { everyMs: number; requests?: number; route?: MisbehavingRoute };
  /** Message lists report a million pages and answer every page with page 1's items. */
  endlessPages?: boolean;
  /** Ids in answers replaced with hostile text (path traversal, terminal escape sequences). */
  badIds?: 'session' | 'thread' | 'message' | 'chat' | 'artifact';
  /** Get session answers a JSON array nested this deep. */
  deepJson?: number;
}

/** The hostile values of `badIds`. */
export const BAD_IDS = {
  session: '../../\u001b]0;pwned\u0007',
  thread: '\u001b]52;c;cHduZWQ=\u0007',
  message: 'x\u001b[2J',
  chat: 'not-a-uuid',
  artifact: '../etc/passwd',
} as const;

/** The `--misbehave` names of `agents emulator`, each with fixed parameters. */
export const MISBEHAVIOURS = {
  'ignore-thread-filter': { ignoreThreadFilter: true },
  'ignore-session-filter': { ignoreSessionFilter: true },
  'endless-body': { endlessBody: 'any-get' },
  trickle: { trickle: { everyMs: 1000, route: 'any-get' } },
  'endless-pages': { endlessPages: true },
  'bad-ids-session': { badIds: 'session' },
  'bad-ids-thread': { badIds: 'thread' },
  'deep-json': { deepJson: 100_000 },
} as const satisfies Record<string, Misbehaviour>;

export type MisbehaviourName = keyof typeof MISBEHAVIOURS;

/** The options of several `--misbehave` names together. */
export function misbehaviourOf(names: readonly MisbehaviourName[]): Misbehaviour {
  return Object.assign({}, ...names.map((n) => MISBEHAVIOURS[n])) as Misbehaviour;
}

/** Whether a misbehaviour aimed at `route` applies to a GET of route `name`. */
export function aimsAt(route: MisbehavingRoute | undefined, name: string | undefined): boolean {
  if (route === undefined || name === undefined) return false;
  if (route === 'any-get') return true;
  if (route === 'session') return name === '/sessions/:id';
  return name === '/sessions/:id/messages' || name === '/sessions/:id/threads/:tid/messages';
}

type Json = Record<string, unknown>;

/** The ids of an answer replaced as `badIds` says; other answers pass unchanged. */
export function withBadIds(reply: Reply, badIds: Misbehaviour['badIds'], routeName: string): Reply {
  if (badIds === undefined || reply.status >= 300) return reply;
  const value = JSON.parse(reply.body) as Json;
  const items = Array.isArray(value.items) ? (value.items as Json[]) : [];
  switch (badIds) {
    case 'session':
      if (routeName === '/sessions' || routeName === '/sessions/:id') value.id = BAD_IDS.session;
      break;
    case 'thread':
      if (routeName === '/sessions') value.thread_id = BAD_IDS.thread;
      if (routeName === '/sessions/:id/messages' && 'chat_thread_id' in value) {
        value.chat_thread_id = BAD_IDS.thread;
      }
      for (const m of items) m.chat_thread_id = BAD_IDS.thread;
      break;
    case 'message':
      for (const m of items) m.id = BAD_IDS.message;
      break;
    case 'chat':
      for (const m of items) m.chat_id = BAD_IDS.chat;
      break;
    case 'artifact':
      if (routeName === '/sessions/:id/artifacts/:aid') value.id = BAD_IDS.artifact;
      if (Array.isArray(value.plan_artifact_ids)) value.plan_artifact_ids = [BAD_IDS.artifact];
      break;
  }
  return { ...reply, body: JSON.stringify(value) };
}

/** A list answer made to claim a million pages (page 1's items are what the handler was asked for). */
export function withEndlessPages(reply: Reply): Reply {
  if (reply.status !== 200) return reply;
  const value = JSON.parse(reply.body) as { meta: Json };
  Object.assign(value.meta, { total: 100_000_000, total_pages: 1_000_000 });
  return { ...reply, body: JSON.stringify(value) };
}

/** `[[[…]]]` nested `depth` levels, built without recursion. */
export function deepJson(depth: number): Reply {
  return { ...json(200, null), body: '['.repeat(depth) + ']'.repeat(depth) };
}

/** 200, then `{"id":"` and `a`s until the client goes, 64 KiB as it reads (on 'drain': memory stays flat). */
export function writeEndless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let stopped = false;
  res.on('close', () => (stopped = true));
  const pump = () => {
    while (!stopped) {
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  res.write('{"id":"');
  pump();
}

/** The reply's status and headers at once, then its body a byte every `everyMs`, until done or gone. */
export function writeTrickle(res: ServerResponse, reply: Reply, everyMs: number): void {
  const body = Buffer.from(reply.body, 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
  let at = 0;
  const timer = setInterval(() => {
    if (res.destroyed || at >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body.subarray(at, at + 1));
    at += 1;
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}
