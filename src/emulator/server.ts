// The emulator's HTTP(S) server: options checked, parts set up (emulation.ts), a pipeline per request
// (pipeline.ts), and the handle a test holds: its address, the knobs it turns and the content it plants.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Message } from '../core/api/types.js';
import { FaultPicker } from './faults.js';
import type { SessionRecord, Store } from './store.js';
import { apiError, listen, shut, writeReply } from './http.js';
import { setUpEmulation, type Emulation } from './emulation.js';
import { handle } from './pipeline.js';
import { artifactView } from './sessions.js';
import { emptyStats, type AddMessageInput, type EmulatorOptions, type RunningEmulator } from './surface.js';

/** A typo in a test's options fails loudly instead of running an emulator that is kinder than asked. */
function checkOptions(o: EmulatorOptions): void {
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535))
    throw new RangeError('port must be an integer from 0 to 65535');
  if (o.timeScale !== undefined && !(o.timeScale >= 0 && Number.isFinite(o.timeScale)))
    throw new RangeError('timeScale must be a finite number >= 0');
  if (o.maxBodyBytes !== undefined && !(o.maxBodyBytes >= 0))
    throw new RangeError('maxBodyBytes must be >= 0');
  if (o.rateLimit && !(o.rateLimit.limit >= 1 && o.rateLimit.windowMs > 0))
    throw new RangeError('rateLimit needs limit >= 1 and windowMs > 0');
  if (o.turns !== undefined && o.turns !== 'timed' && o.turns !== 'held')
    throw new RangeError("turns must be 'timed' or 'held'");
  if (o.turnMsPerRequest !== undefined) {
    if (!(o.turnMsPerRequest >= 0)) throw new RangeError('turnMsPerRequest must be >= 0');
    if (o.turns !== 'held') throw new RangeError("turnMsPerRequest needs turns: 'held'");
  }
}

/** Starts the emulator and resolves once it listens. Rejects (e.g. EADDRINUSE) if it cannot. */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  checkOptions(opts);
  const e = await setUpEmulation(opts);
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    handle(e, req, res).catch(() => {
      // A handler exception is a 500 JSON, never a crash; the emulator keeps serving.
      writeReply(res, apiError(500, 'INTERNAL', 'Internal server error'));
    });
  };
  const timeouts = { requestTimeout: 60_000, headersTimeout: 20_000 };
  const server =
    opts.tls === undefined
      ? createServer(timeouts, serve)
      : createSecureServer({ ...timeouts, cert: opts.tls.cert, key: opts.tls.key }, serve);
  e.listening = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1', opts.tls ? 'https' : 'http');
  return controls(e, server);
}

/** A message planted in a session's thread, stamped like the service's (RunningEmulator.addMessage). */
function addMessage(store: Store, record: SessionRecord, m: AddMessageInput): Message {
  const threadId = m.chat_thread_id.toLowerCase();
  const thread = record.threads.get(threadId) ?? { id: threadId, taskId: m.task_id ?? store.taskId() };
  record.threads.set(threadId, thread);
  const createdMs = m.created_at === undefined ? store.tick() : Date.parse(m.created_at);
  if (Number.isNaN(createdMs)) throw new Error(`addMessage: created_at is not a date: ${m.created_at}`);
  const given = Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined));
  const msg = store.store(
    record,
    {
      threadId,
      taskId: thread.taskId,
      role: m.role,
      type: m.type,
      message: m.message,
      // Like the service: assistant messages carry the provider's second, user messages none.
      ts: m.role === 'user' ? undefined : (ms) => Math.floor(ms / 1000),
      at: createdMs,
    },
    { ...given, chat_thread_id: threadId },
  );
  return structuredClone(msg);
}

/** The handle of emulator `e`, listening through `server`. */
function controls(e: Emulation, server: Server): RunningEmulator {
  const { store, held } = e;
  const { address: host, port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const session = (hook: string, id: string) => {
    const record = store.get(id);
    if (!record) throw new Error(`${hook}: no session ${id}`);
    return record;
  };
  const heldClock = (hook: string) => {
    if (!held) throw new Error(`${hook}: this emulator's turns are timed (start it with turns: 'held')`);
    return held;
  };
  return {
    url: e.listening,
    port,
    stopListening: () => (server.listening ? shut(server) : Promise.resolve()),
    async listenAgain() {
      if (!server.listening) await listen(server, port, host);
    },
    get listening() {
      return server.listening;
    },
    keys: e.keys,
    close() {
      store.cancelAllTurns();
      e.timers.cancelAll();
      held?.cancelAll();
      void e.artifactHost.close();
      closing ??= shut(server);
      return closing;
    },
    setFaults(f) {
      e.faults = f ? new FaultPicker(f) : undefined;
    },
    setRepeatedParams(mode) {
      e.repeatedParams = mode;
    },
    setMisbehaviour(m) {
      e.misbehave = { ...m };
      e.trickled = 0;
    },
    advanceTurns(ms) {
      const clock = heldClock('advanceTurns');
      if (!(ms >= 0)) throw new RangeError('advanceTurns: ms must be >= 0');
      return clock.advance(ms);
    },
    endTurns(sessionId) {
      const clock = heldClock('endTurns');
      return sessionId === undefined ? clock.advance(Infinity) : clock.finish(sessionId.toLowerCase());
    },
    heldTurnEvents: () => held?.pending ?? 0,
    stats: () => structuredClone(e.stats),
    resetStats() {
      e.stats = emptyStats();
    },
    addMessage: (sessionId, m) => addMessage(store, session('addMessage', sessionId), m),
    messages: (sessionId) => (store.get(sessionId)?.messages ?? []).map((s) => structuredClone(s.msg)),
    addArtifact: (sessionId, a) => artifactView(e, store.attach(session('addArtifact', sessionId), a), false),
    addPullRequest(sessionId, prUrl, status = 'open') {
      session('addPullRequest', sessionId).pullRequests.push({ url: prUrl, status });
    },
    artifactsUrl: e.artifactHost.url,
    artifactRequests: () => e.artifactHost.requests(),
  };
}
