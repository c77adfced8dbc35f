// What a test holds of a running emulator: its address, close, the knobs it turns while it runs (faults,
// misbehaviour, held turns) and the content it plants (messages, artifacts, pull requests).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from '../core/api/types.js';
import { FaultPicker } from './faults.js';
import type { Store } from './store.js';
import { emptyStats, type Emulation } from './emulation.js';
import type { AddArtifactInput, AddMessageInput, FaultOptions, RunningEmulator } from './surface.js';

/** A message planted in a session's thread, stamped like the service's (RunningEmulator.addMessage). */
function addMessage(store: Store, sessionId: string, m: AddMessageInput): Message {
  const record = store.get(sessionId);
  if (!record) throw new Error(`addMessage: no session ${sessionId}`);
  const threadId = m.chat_thread_id.toLowerCase();
  const thread = record.threads.get(threadId) ?? { id: threadId, taskId: m.task_id ?? store.taskId() };
  record.threads.set(threadId, thread);
  const createdMs = m.created_at === undefined ? store.tick() : Date.parse(m.created_at);
  if (Number.isNaN(createdMs)) throw new Error(`addMessage: created_at is not a date: ${m.created_at}`);
  const created = new Date(createdMs).toISOString();
  const given = Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as AddMessageInput;
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
}

/** An artifact attached to a session, served by the artifact host (RunningEmulator.addArtifact). */
function addArtifact(e: Emulation, sessionId: string, a: AddArtifactInput) {
  const record = e.store.get(sessionId);
  if (!record) throw new Error(`addArtifact: no session ${sessionId}`);
  const stored = e.store.attach(record, {
    kind: a.kind,
    content: typeof a.content === 'string' ? Buffer.from(a.content) : a.content,
    fileName: a.fileName ?? (a.kind === 'plan' ? 'plan.md' : 'file.txt'),
    mimeType: a.mimeType ?? (a.kind === 'plan' ? 'text/markdown' : 'text/plain'),
    planId: a.planId,
    newPlan: a.newPlan,
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

/** The handle of emulator `e`, listening through `server` on `port`; `checkFaults` checks setFaults' options. */
export function controls(
  e: Emulation,
  server: Server,
  port: number,
  checkFaults: (f: FaultOptions | undefined) => void,
): RunningEmulator {
  const { store, svc, held } = e;
  let closing: Promise<void> | undefined;
  const host = (server.address() as AddressInfo).address;
  return {
    url: e.listening,
    port,
    stopListening() {
      return new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        // As a process that exits: every connection goes, a request in flight with it.
        server.closeAllConnections();
      });
    },
    listenAgain() {
      return new Promise<void>((resolve, reject) => {
        if (server.listening) return resolve();
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    },
    get listening() {
      return server.listening;
    },
    keys: e.keys,
    close() {
      closing ??= new Promise<void>((resolve) => {
        store.cancelAllTurns();
        e.timers.cancelAll();
        held?.cancelAll();
        void e.artifactHost.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
    setFaults(f: FaultOptions | undefined) {
      checkFaults(f);
      e.faults = f ? new FaultPicker(f) : undefined;
    },
    setRepeatedParams(mode) {
      svc.repeatedParams = mode;
    },
    setMisbehaviour(m) {
      svc.misbehave = { ...m };
      e.trickled = 0;
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
    addMessage: (sessionId: string, m: AddMessageInput) => addMessage(store, sessionId, m),
    messages(sessionId: string): Message[] {
      return (store.get(sessionId)?.messages ?? []).map((s) => structuredClone(s.msg));
    },
    addArtifact: (sessionId: string, a: AddArtifactInput) => addArtifact(e, sessionId, a),
    addPullRequest(sessionId: string, prUrl: string, status = 'open') {
      const record = store.get(sessionId);
      if (!record) throw new Error(`addPullRequest: no session ${sessionId}`);
      record.pullRequests.push({ url: prUrl, status });
    },
    artifactsUrl: e.artifactHost.url,
    artifactRequests: () => e.artifactHost.requests(),
  };
}
