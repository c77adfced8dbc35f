// What a test holds of a running emulator: its address, close, the knobs it turns while it runs (faults,
// misbehaviour, held turns) and the content it plants (messages, artifacts, pull requests).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from '../core/api/types.js';
import { FaultPicker } from './faults.js';
import type { SessionRecord, Store } from './store.js';
import { listen, shut } from './http.js';
import { emptyStats, type Emulation } from './emulation.js';
import type { AddArtifactInput, AddMessageInput, RunningEmulator } from './surface.js';

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

/** An artifact attached to a session, served by the artifact host (RunningEmulator.addArtifact). */
function addArtifact(e: Emulation, record: SessionRecord, a: AddArtifactInput) {
  const stored = e.store.attach(record, {
    ...a,
    content: typeof a.content === 'string' ? Buffer.from(a.content) : a.content,
    fileName: a.fileName ?? (a.kind === 'plan' ? 'plan.md' : 'file.txt'),
    mimeType: a.mimeType ?? (a.kind === 'plan' ? 'text/markdown' : 'text/plain'),
  });
  return {
    id: stored.id,
    url: `${e.artifactHost.url}/${stored.token}/${encodeURIComponent(stored.fileName)}`,
    file_name: stored.fileName,
    mime_type: stored.mimeType,
    kind: stored.kind,
    plan_id: stored.planId,
    created_at: stored.createdAt,
  };
}

/** The handle of emulator `e`, listening through `server`. */
export function controls(e: Emulation, server: Server): RunningEmulator {
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
    addArtifact: (sessionId, a) => addArtifact(e, session('addArtifact', sessionId), a),
    addPullRequest(sessionId, prUrl, status = 'open') {
      session('addPullRequest', sessionId).pullRequests.push({ url: prUrl, status });
    },
    artifactsUrl: e.artifactHost.url,
    artifactRequests: () => e.artifactHost.requests(),
  };
}
