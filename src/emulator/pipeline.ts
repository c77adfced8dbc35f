// One request through the emulator: faults, body, gateway, route, handler and misbehaviours, then the
// delivery (whole, trickled, endless, late, cut).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UUID_PATTERN as UUID } from '../util/uuid.js';
import { IMMEDIATE_FAULTS } from './faults.js';
import { apiError, json, noRoute, readBody, inErrorShape, writeReply, type Reply } from './http.js';
import { listMessages } from './list.js';
import { createSession, getArtifact, getSession, sendMessage, type Call } from './sessions.js';
import { aimsAt, deepJson, withBadIds, withEndlessPages, writeEndless, writeTrickle } from './misbehave.js';
import type { Emulation } from './emulation.js';

// A Host header is echoed into every href; anything but host[:port] falls back to the listening address.
const HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

const JSON_TYPE = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;

/** Each path the API has (its name counts in stats), with a handler per method. */
const ROUTES: Record<string, Record<string, (e: Emulation, call: Call) => Reply>> = {
  '/sessions': { POST: createSession },
  '/sessions/:id': { GET: getSession },
  '/sessions/:id/messages': { GET: listMessages, POST: sendMessage },
  '/sessions/:id/threads/:tid/messages': { GET: listMessages },
  // The live service's; the spec has no artifact endpoint (the server answers it as an unknown path).
  '/sessions/:id/artifacts/:aid': { GET: getArtifact },
};
const PATTERNS = Object.keys(ROUTES).map(
  (name) => [name, new RegExp(`^/rest/v1${name.replace(/:[a-z]+/g, '([^/]+)')}$`)] as const,
);

/** The route of a path and its path parameters, lower-cased; undefined for a path the API lacks. */
function matchRoute(pathname: string) {
  for (const [name, pattern] of PATTERNS) {
    const m = pattern.exec(pathname);
    if (m) return { name, methods: ROUTES[name]!, params: m.slice(1).map((p) => p.toLowerCase()) };
  }
  return undefined;
}

type Match = ReturnType<typeof matchRoute>;

/** The gateway's reply, the router's, or its handler's. */
function route(e: Emulation, req: IncomingMessage, url: URL, match: Match, body: Buffer): Reply {
  const { dialect } = e;
  const key = e.gate(req.headers, e.stats);
  if ('status' in key) return key;
  const method = req.method ?? 'GET';
  if (e.listLimitDue && method === 'GET' && aimsAt('list', match?.name)) {
    // Blocks' CI mock answers its first poll so, to make a client's retry path run.
    e.listLimitDue = false;
    e.stats.rejected429 += 1;
    return json(429, { error: 'Rate limit exceeded' }, { 'retry-after': '1' });
  }
  if (!match) return noRoute();
  const { name, methods } = match;
  const handler = methods[method];
  const allow = Object.keys(methods).join(', ');
  if (!handler) return apiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`, { allow });
  // A path id that is no UUID is a 404 like an unknown id, or bad input in the live dialect.
  if (!match.params.every((p) => UUID.test(p))) {
    return dialect.badIdStatus === 404
      ? apiError(404, 'NOT_FOUND', 'Session not found')
      : apiError(dialect.badIdStatus, 'VALIDATION', 'Path ids must be UUIDs');
  }
  if (name === '/sessions/:id/artifacts/:aid' && !dialect.artifacts) return noRoute();
  if (method === 'POST' && !JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    return apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  const host = req.headers.host;
  const scheme = e.listening.slice(0, e.listening.indexOf(':'));
  const base = host && HOST.test(host) ? `${scheme}://${host}` : e.listening;
  const call: Call = {
    base,
    workspace: key.workspace,
    url,
    body,
    params: match.params,
    session: e.store.find(key.workspace, match.params[0] ?? ''),
  };
  const m = e.misbehave;
  if (method === 'GET' && m.deepJson !== undefined && name === '/sessions/:id') return deepJson(m.deepJson);
  const listing = method === 'GET' && aimsAt('list', name);
  if (listing && m.ignoreThreadFilter) {
    // The thread forgotten: the threaded form read as the session's, and thread_id dropped.
    call.params = call.params.slice(0, 1);
    call.url = new URL(url);
    call.url.searchParams.delete('thread_id');
  }
  if (listing && m.endlessPages) {
    call.url = new URL(call.url);
    call.url.searchParams.set('page', '1');
  }
  const reply = handler(e, call);
  return withBadIds(listing && m.endlessPages ? withEndlessPages(reply) : reply, m.badIds, name);
}

/** Serves one request: counted, perhaps faulted, its body read, answered and delivered. */
export async function handle(e: Emulation, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { held, opts } = e;
  e.stats.requests += 1;
  const method = req.method ?? 'GET';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://emulator.invalid');
  } catch {
    return writeReply(res, apiError(400, 'BAD_REQUEST', 'Malformed request target'));
  }
  const match = matchRoute(url.pathname);
  const routeName = match?.name;
  const key = `${method} ${routeName ?? '(unknown)'}`;
  e.stats.byRoute[key] = (e.stats.byRoute[key] ?? 0) + 1;

  const fault = e.faults?.pick(method);
  if (fault) e.stats.faultsInjected += 1;
  if (fault === 'reset') {
    req.socket.destroy();
    return;
  }
  const read = await readBody(req, e.maxBodyBytes);
  if (read.kind === 'aborted') return;
  if (read.kind === 'too-large') {
    // Stop reading: answer, then close the connection rather than drain an unbounded upload.
    const error = `Request body is larger than ${e.maxBodyBytes} bytes`;
    return writeReply(res, apiError(413, 'PAYLOAD_TOO_LARGE', error, { connection: 'close' }));
  }
  const immediate = fault && IMMEDIATE_FAULTS[fault]?.();
  if (immediate) return writeReply(res, immediate);
  const reply = inErrorShape(route(e, req, url, match, read.body), e.dialect.errorCodes);
  // A clock counted in requests: each one answered moves held turns on, after its answer was made.
  if (held && opts.turnMsPerRequest) {
    e.unstamped.ms += opts.turnMsPerRequest;
    held.advance(opts.turnMsPerRequest);
  }
  const m = e.misbehave;
  if (method === 'GET' && reply.status === 200 && aimsAt(m.endlessBody, routeName)) return writeEndless(res);
  const trickle = m.trickle;
  const trickled = method === 'GET' && trickle && aimsAt(trickle.route ?? 'any-get', routeName);
  if (trickled && (trickle.requests === undefined || e.trickled < trickle.requests)) {
    e.trickled += 1;
    return writeTrickle(res, reply, trickle.everyMs);
  }
  if (fault === 'slow') {
    // Processed first, answered late: a client that gives up cannot know that its POST took effect.
    await new Promise<void>((resolve) => e.timers.after(e.faults?.options.slowMs ?? 2000, resolve));
  }
  writeReply(res, reply, fault);
}
