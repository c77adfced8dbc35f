// One request through the emulator: faults, body, gateway, route, handler and misbehaviours, then the
// delivery (whole, trickled, endless, late, cut).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { immediateFaultReply } from './faults.js';
import {
  apiError,
  json,
  noRoute,
  readBody,
  withoutErrorCode,
  writeReply,
  type Delivery,
  type Reply,
} from './http.js';
import { matchRoute } from './router.js';
import type { Call } from './sessions.js';
import { aimsAt, deepJson, withBadIds, withEndlessPages, writeEndless, writeTrickle } from './misbehave.js';
import type { Emulation } from './emulation.js';

// A Host header is echoed into every href; anything but host[:port] falls back to the listening address.
const HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/** The reply to a request whose body was read, in the dialect's error shape. */
function answer(e: Emulation, req: IncomingMessage, url: URL, body: Buffer): Reply {
  const reply = route(e, req, url, body);
  const codes = e.dialect.errorCodes;
  return codes === 'all' || (codes === 'not-422' && reply.status !== 422) ? reply : withoutErrorCode(reply);
}

/** The gateway's reply, the router's, or its handler's. */
function route(e: Emulation, req: IncomingMessage, url: URL, body: Buffer): Reply {
  const { svc, dialect, opts } = e;
  const gate = e.gateway.check(req.headers);
  if (!gate.ok) {
    if (gate.rateLimited) svc.stats.rejected429 += 1;
    return gate.reply;
  }
  const method = req.method ?? 'GET';
  const match = matchRoute(method, url.pathname);
  if (e.listLimitDue && method === 'GET' && aimsAt('list', match.route?.name)) {
    // Blocks' CI mock answers its first poll so, to make a client's retry path run.
    e.listLimitDue = false;
    svc.stats.rejected429 += 1;
    const reply = json(429, { error: 'Rate limit exceeded' });
    reply.headers['retry-after'] = '1';
    return reply;
  }
  if (!match.route) return noRoute();
  if (!match.handler) {
    const reply = apiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`);
    reply.headers.allow = match.allow.join(', ');
    return reply;
  }
  if (!match.idsValid) {
    return dialect.badIdStatus === 404
      ? apiError(404, 'NOT_FOUND', 'Session not found')
      : apiError(dialect.badIdStatus, 'VALIDATION', 'Path ids must be UUIDs');
  }
  if (match.route?.name === '/sessions/:id/artifacts/:aid' && !dialect.artifacts) {
    return noRoute();
  }
  if (method === 'POST') {
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    const ok = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/.test(type);
    if (!ok) return apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  const host = req.headers.host;
  const scheme = e.listening.slice(0, e.listening.indexOf(':'));
  const base = host && HOST.test(host) ? `${scheme}://${host}` : e.listening;
  const call: Call = {
    base,
    appUrl: opts.appUrl?.replace(/\/+$/, '') ?? (dialect.name === 'spec' ? base : 'https://blocks.team'),
    workspace: gate.key.workspace,
    url,
    body,
    params: match.params,
    dialect,
    artifactsBase: e.artifactHost.url,
    artifactTtlMs: e.artifactTtlMs,
  };
  const m = svc.misbehave;
  const name = match.route?.name ?? '';
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
  let reply = match.handler(svc, call);
  if (listing && m.endlessPages) reply = withEndlessPages(reply);
  return withBadIds(reply, m.badIds, name);
}

/** Serves one request: counted, perhaps faulted, its body read, answered and delivered. */
export async function handle(e: Emulation, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { svc, held, opts } = e;
  svc.stats.requests += 1;
  const method = req.method ?? 'GET';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://emulator.invalid');
  } catch {
    writeReply(res, apiError(400, 'BAD_REQUEST', 'Malformed request target'));
    return;
  }
  const key = matchRoute(method, url.pathname).statsKey;
  svc.stats.byRoute[key] = (svc.stats.byRoute[key] ?? 0) + 1;

  const fault = e.faults?.pick(method);
  if (fault) svc.stats.faultsInjected += 1;
  if (fault === 'reset') {
    req.socket.destroy();
    return;
  }
  const read = await readBody(req, e.maxBodyBytes);
  if (read.kind === 'aborted') return;
  if (read.kind === 'too-large') {
    // Stop reading: answer, then close the connection rather than drain an unbounded upload.
    const reply = apiError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${e.maxBodyBytes} bytes`);
    reply.headers.connection = 'close';
    writeReply(res, reply);
    return;
  }
  const immediate = fault ? immediateFaultReply(fault) : undefined;
  if (immediate) {
    writeReply(res, immediate);
    return;
  }
  const reply = answer(e, req, url, read.body);
  // A clock counted in requests: each one answered moves held turns on, after its answer was made.
  if (held && opts.turnMsPerRequest) {
    e.unstamped.ms += opts.turnMsPerRequest;
    held.advance(opts.turnMsPerRequest);
  }
  const routeName = matchRoute(method, url.pathname).route?.name;
  const m = svc.misbehave;
  if (method === 'GET' && reply.status === 200 && aimsAt(m.endlessBody, routeName)) {
    writeEndless(res);
    return;
  }
  const trickle = m.trickle;
  if (method === 'GET' && trickle && aimsAt(trickle.route ?? 'any-get', routeName)) {
    if (trickle.requests === undefined || e.trickled < trickle.requests) {
      e.trickled += 1;
      writeTrickle(res, reply, trickle.everyMs);
      return;
    }
  }
  if (fault === 'slow') {
    // Processed first, answered late: a client that gives up cannot know that its POST took effect.
    const ms = e.faults?.slowMs ?? 2000;
    await new Promise<void>((resolve) => e.timers.after(ms, resolve));
  }
  let delivery: Delivery = 'whole';
  if (fault === 'truncate') delivery = 'truncate';
  if (fault === 'reset-after-commit') delivery = 'drop';
  writeReply(res, reply, delivery);
}
