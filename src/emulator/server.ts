// The emulator's HTTP server: one pipeline per request (faults, body, gateway, route, handler, delivery),
// and the lifecycle around it. node:http only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from '../api/types.js';
import { FaultPicker, immediateFaultReply } from './faults.js';
import { Gateway, RateLimiter } from './gateway.js';
import { apiError, json, readBody, withoutErrorCode, writeReply, type Delivery, type Reply } from './http.js';
import { matchRoute } from './router.js';
import type { Call, Service } from './sessions.js';
import { Store } from './store.js';
import { HeldClock, Timers } from './turn-clock.js';
import { dialect as dialectOf } from './dialect.js';
import { startArtifactHost } from './artifact-host.js';
import { aimsAt, deepJson, withBadIds, withEndlessPages, writeEndless, writeTrickle } from './misbehave.js';
import { FAULT_MODES } from './surface.js';
import type {
  AddArtifactInput,
  AddMessageInput,
  EmulatorKey,
  EmulatorOptions,
  EmulatorStats,
  FaultOptions,
  RunningEmulator,
} from './surface.js';

/** The documented development key, accepted when no keys are given. */
export const DEV_KEY: EmulatorKey = { key: 'agents-dev-key', workspace: 'dev' };

const emptyStats = (): EmulatorStats => ({
  requests: 0,
  byRoute: {},
  sessionsCreated: 0,
  followUps: 0,
  rejected429: 0,
  faultsInjected: 0,
});

// A Host header is echoed into every href; anything but host[:port] falls back to the listening address.
const HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

function checkFaults(f: FaultOptions | undefined): void {
  if (!f) return;
  if (!(f.rate >= 0 && f.rate <= 1)) throw new RangeError('faults.rate must be from 0 to 1');
  const bad = f.modes.find((m) => !FAULT_MODES.includes(m));
  if (bad !== undefined) throw new RangeError(`unknown fault mode ${JSON.stringify(bad)}`);
  if (f.slowMs !== undefined && !(f.slowMs >= 0)) throw new RangeError('faults.slowMs must be >= 0');
}

/** A typo in a test's options fails loudly instead of running an emulator that is kinder than asked. */
function checkOptions(o: EmulatorOptions): void {
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535)) {
    throw new RangeError('port must be an integer from 0 to 65535');
  }
  if (o.timeScale !== undefined && !(o.timeScale >= 0 && Number.isFinite(o.timeScale))) {
    throw new RangeError('timeScale must be a finite number >= 0');
  }
  if (o.maxBodyBytes !== undefined && !(o.maxBodyBytes >= 0))
    throw new RangeError('maxBodyBytes must be >= 0');
  if (o.rateLimit && !(o.rateLimit.limit >= 1 && o.rateLimit.windowMs > 0)) {
    throw new RangeError('rateLimit needs limit >= 1 and windowMs > 0');
  }
  if (o.turns !== undefined && o.turns !== 'timed' && o.turns !== 'held') {
    throw new RangeError("turns must be 'timed' or 'held'");
  }
  if (o.turnMsPerRequest !== undefined) {
    if (!(o.turnMsPerRequest >= 0)) throw new RangeError('turnMsPerRequest must be >= 0');
    if (o.turns !== 'held') throw new RangeError("turnMsPerRequest needs turns: 'held'");
  }
  checkFaults(o.faults);
}

/** Starts the emulator and resolves once it listens. Rejects (e.g. EADDRINUSE) if it cannot. */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  checkOptions(opts);
  const keys = (opts.keys ?? [DEV_KEY]).map((k) => ({ ...k }));
  const limit = opts.rateLimit ?? { limit: 100, windowMs: 60_000 };
  const dialect = dialectOf(opts.dialect);
  const gateway = new Gateway(keys, limit ? new RateLimiter(limit.limit, limit.windowMs) : undefined, {
    wrongKeyStatus: dialect.wrongKeyStatus,
    retryAfter: dialect.retryAfter,
  });
  const maxBodyBytes = opts.maxBodyBytes ?? 2 * 1024 * 1024;
  // Faults' delays are always real time; turns run on real timers or on a clock the test moves, and what
  // the store stamps moves with it, so a turn held for a minute has the created_at and ts of one.
  const timers = new Timers();
  const held = opts.turns === 'held' ? new HeldClock() : undefined;
  // What requests moved turns on by (turnMsPerRequest) is not stamped: those messages land when the request
  // that moved them was answered, in real time; only a test's own advanceTurns moves the stamps on.
  let unstamped = 0;
  const store = new Store(held ? () => Date.now() + held.elapsed - unstamped : Date.now, dialect.countedIds);
  const svc: Service = {
    store,
    stats: emptyStats(),
    turns: {
      store,
      timers: held ?? timers,
      timeScale: held ? 1 : (opts.timeScale ?? 1),
      random: Math.random,
      dialect,
    },
    repeatedParams: opts.repeatedParams ?? (dialect.name === 'spec' ? 'first' : 'all'),
    misbehave: { ...opts.misbehave },
  };
  /** GETs that trickled so far (Misbehaviour.trickle.requests counts them). */
  let trickled = 0;
  /** Whether the one 429 of `firstListRateLimited` is still to come. */
  let listLimitDue = dialect.firstListRateLimited;
  const artifactTtlMs = opts.artifactTtlMs ?? 6 * 86_400_000;
  // Presigned downloads come from another origin, as the service's come from its storage provider.
  const artifactHost = await startArtifactHost(store, opts.host ?? '127.0.0.1');
  let faults = opts.faults ? new FaultPicker(opts.faults) : undefined;
  let listening = '';

  function serve(req: IncomingMessage, url: URL, body: Buffer): Reply {
    const reply = route(req, url, body);
    return dialect.errorCodes ? reply : withoutErrorCode(reply);
  }

  function route(req: IncomingMessage, url: URL, body: Buffer): Reply {
    const gate = gateway.check(req.headers);
    if (!gate.ok) {
      if (gate.rateLimited) svc.stats.rejected429 += 1;
      return gate.reply;
    }
    const method = req.method ?? 'GET';
    const match = matchRoute(method, url.pathname);
    if (listLimitDue && method === 'GET' && aimsAt('list', match.route?.name)) {
      // Blocks' CI mock answers its first poll so, to make a client's retry path run.
      listLimitDue = false;
      svc.stats.rejected429 += 1;
      const reply = json(429, { error: 'Rate limit exceeded' });
      reply.headers['retry-after'] = '1';
      return reply;
    }
    if (!match.route) return apiError(404, 'NOT_FOUND', `No route for ${method} ${url.pathname}`);
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
      return apiError(404, 'NOT_FOUND', `No route for ${method} ${url.pathname}`);
    }
    if (method === 'POST') {
      const type = (req.headers['content-type'] ?? '').toLowerCase();
      const ok = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/.test(type);
      if (!ok) return apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    }
    const host = req.headers.host;
    const base = host && HOST.test(host) ? `http://${host}` : listening;
    const call: Call = {
      base,
      appUrl: opts.appUrl?.replace(/\/+$/, '') ?? (dialect.name === 'spec' ? base : 'https://blocks.team'),
      workspace: gate.key.workspace,
      url,
      body,
      params: match.params,
      dialect,
      artifactsBase: artifactHost.url,
      artifactTtlMs,
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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
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

    const fault = faults?.pick(method);
    if (fault) svc.stats.faultsInjected += 1;
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    const read = await readBody(req, maxBodyBytes);
    if (read.kind === 'aborted') return;
    if (read.kind === 'too-large') {
      // Stop reading: answer, then close the connection rather than drain an unbounded upload.
      const reply = apiError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBodyBytes} bytes`);
      reply.headers.connection = 'close';
      writeReply(res, reply);
      return;
    }
    const immediate = fault ? immediateFaultReply(fault) : undefined;
    if (immediate) {
      writeReply(res, immediate);
      return;
    }
    const reply = serve(req, url, read.body);
    // A clock counted in requests: each one answered moves held turns on, after its answer was made.
    if (held && opts.turnMsPerRequest) {
      unstamped += opts.turnMsPerRequest;
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
      if (trickle.requests === undefined || trickled < trickle.requests) {
        trickled += 1;
        writeTrickle(res, reply, trickle.everyMs);
        return;
      }
    }
    if (fault === 'slow') {
      // Processed first, answered late: a client that gives up cannot know that its POST took effect.
      const ms = faults?.slowMs ?? 2000;
      await new Promise<void>((resolve) => timers.after(ms, resolve));
    }
    let delivery: Delivery = 'whole';
    if (fault === 'truncate') delivery = 'truncate';
    if (fault === 'reset-after-commit') delivery = 'drop';
    writeReply(res, reply, delivery);
  }

  const server = createServer({ requestTimeout: 60_000, headersTimeout: 20_000 }, (req, res) => {
    handle(req, res).catch(() => {
      // A handler exception is a 500 JSON, never a crash; the emulator keeps serving.
      writeReply(res, apiError(500, 'INTERNAL', 'Internal server error'));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  listening = `http://${hostPart}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url: listening,
    port: address.port,
    keys,
    close() {
      closing ??= new Promise<void>((resolve) => {
        store.cancelAllTurns();
        timers.cancelAll();
        held?.cancelAll();
        void artifactHost.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
    setFaults(f: FaultOptions | undefined) {
      checkFaults(f);
      faults = f ? new FaultPicker(f) : undefined;
    },
    setRepeatedParams(mode) {
      svc.repeatedParams = mode;
    },
    setMisbehaviour(m) {
      svc.misbehave = { ...m };
      trickled = 0;
    },
    advanceTurns(ms: number) {
      if (!held)
        throw new Error("advanceTurns: this emulator's turns are timed (start it with turns: 'held')");
      if (!(ms >= 0)) throw new RangeError('advanceTurns: ms must be >= 0');
      return held.advance(ms);
    },
    endTurns(sessionId?: string) {
      if (!held) throw new Error("endTurns: this emulator's turns are timed (start it with turns: 'held')");
      return sessionId === undefined ? held.advance(Infinity) : held.finish(sessionId.toLowerCase());
    },
    heldTurnEvents: () => held?.pending ?? 0,
    stats: () => structuredClone(svc.stats),
    resetStats() {
      svc.stats = emptyStats();
    },
    addMessage(sessionId: string, m: AddMessageInput): Message {
      const record = store.get(sessionId);
      if (!record) throw new Error(`addMessage: no session ${sessionId}`);
      const threadId = m.chat_thread_id.toLowerCase();
      const thread = record.threads.get(threadId) ?? { id: threadId, taskId: m.task_id ?? store.taskId() };
      record.threads.set(threadId, thread);
      const createdMs = m.created_at === undefined ? store.tick() : Date.parse(m.created_at);
      if (Number.isNaN(createdMs)) throw new Error(`addMessage: created_at is not a date: ${m.created_at}`);
      const created = new Date(createdMs).toISOString();
      const given = Object.fromEntries(
        Object.entries(m).filter(([, v]) => v !== undefined),
      ) as AddMessageInput;
      const msg: Message = {
        id: store.messageId(),
        chat_id: record.id,
        task_id: thread.taskId,
        // Like the service: assistant messages carry the provider's second, user messages none.
        ts: m.role === 'user' ? null : Math.floor(createdMs / 1000),
        created_at: created,
        updated_at: created,
        ...given,
        chat_thread_id: threadId,
      };
      store.put(record, msg, createdMs);
      return structuredClone(msg);
    },
    messages(sessionId: string): Message[] {
      return (store.get(sessionId)?.messages ?? []).map((s) => structuredClone(s.msg));
    },
    addArtifact(sessionId: string, a: AddArtifactInput) {
      const record = store.get(sessionId);
      if (!record) throw new Error(`addArtifact: no session ${sessionId}`);
      const stored = store.attach(record, {
        kind: a.kind,
        content: typeof a.content === 'string' ? Buffer.from(a.content) : a.content,
        fileName: a.fileName ?? (a.kind === 'plan' ? 'plan.md' : 'file.txt'),
        mimeType: a.mimeType ?? (a.kind === 'plan' ? 'text/markdown' : 'text/plain'),
        planId: a.planId,
        newPlan: a.newPlan,
      });
      return {
        id: stored.id,
        url: `${artifactHost.url}/${stored.token}/${encodeURIComponent(stored.fileName)}`,
        file_name: stored.fileName,
        mime_type: stored.mimeType,
        kind: stored.kind,
        plan_id: stored.planId,
        created_at: stored.createdAt,
      };
    },
    addPullRequest(sessionId: string, prUrl: string, status = 'open') {
      const record = store.get(sessionId);
      if (!record) throw new Error(`addPullRequest: no session ${sessionId}`);
      record.pullRequests.push({ url: prUrl, status });
    },
    artifactsUrl: artifactHost.url,
    artifactRequests: () => artifactHost.requests(),
  };
}
