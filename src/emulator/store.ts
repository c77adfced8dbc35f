// The emulator's memory: sessions per workspace, their threads and messages, and the storage clock.
import { randomUUID } from 'node:crypto';
import type { Message } from '../core/api/types.js';
import { MESSAGE, served } from '../core/api/schemas/index.js';
import type { AddArtifactInput } from './surface.js';

/** A thread of a session: one turn, with the task id of the agent invocation it triggered. */
export interface ThreadRecord {
  id: string;
  taskId: string;
}

/** A stored message plus what sorting needs: its storage order and created_at in ms. */
export interface StoredMessage {
  seq: number;
  createdMs: number;
  msg: Message;
}

/** An artifact attached to a session: a plan iteration or a file, with its bytes. */
export interface ArtifactRecord {
  id: string;
  kind: 'plan' | 'file';
  planId: string | null;
  fileName: string;
  mimeType: string;
  content: Buffer;
  createdAt: string;
  /** The secret in its presigned download link. */
  token: string;
}

/** A session as the emulator keeps it; the API's Session view is built from it per request. */
function newSession(workspace: string, title: string, isPrivate: boolean, agentLabel: string, now: string) {
  return {
    id: randomUUID(),
    workspace,
    title,
    isPrivate,
    /** Who answers: the core agent's name, or a label for an agent id or profile. */
    agentLabel,
    createdAt: now,
    updatedAt: now,
    firstThreadId: '',
    threads: new Map<string, ThreadRecord>(),
    messages: [] as StoredMessage[],
    /** Cancels the turn in progress (its pending messages); set while it may still store something. */
    turn: undefined as { cancel(): void } | undefined,
    /** Pull requests the agent opened: address and status. */
    pullRequests: [] as { url: string; status: string }[],
    /** Artifacts in the order attached. */
    artifacts: [] as ArtifactRecord[],
    /** The session group the create named (the live service's `session_group_id`). */
    sessionGroupId: undefined as string | undefined,
    /** `[[replies:…]]`: the final replies of the session's next turns, in order (the last one stays). */
    replies: undefined as string[] | undefined,
  };
}

export type SessionRecord = ReturnType<typeof newSession>;

/** What a caller gives to store a message; the store fills ids, times and chat_id. */
export interface NewMessage extends Pick<Message, 'role' | 'type' | 'message'> {
  /** Null for a system notice, outside any thread. */
  threadId: string | null;
  taskId: string;
  /** Computes ts from the storage moment (ms); omitted = null. */
  ts?: (createdMs: number) => number | null;
  /** The instant to stamp (ms) instead of the storage clock's next tick: messages stored in one instant. */
  at?: number;
}

export class Store {
  private readonly sessions = new Map<string, SessionRecord>();
  private lastMs = 0;
  private seq = 0;
  private tasksMade = 0;

  /** `now`: the emulator's clock (held turns move it on); `countedIds`: the CI mock's m0…, task-1… ids. */
  constructor(
    readonly now: () => number,
    private readonly countedIds: boolean,
  ) {}

  /** A new task id (one per thread): a UUID, or `task-1`, `task-2`, … */
  taskId(): string {
    return this.countedIds ? `task-${++this.tasksMade}` : randomUUID();
  }

  /** The storage clock: strictly increasing ms, bumped by 1 ms on ties, so created_at never repeats. */
  tick(): number {
    const now = this.now();
    this.lastMs = now > this.lastMs ? now : this.lastMs + 1;
    return this.lastMs;
  }

  createSession(workspace: string, title: string, isPrivate: boolean, agentLabel: string): SessionRecord {
    const record = newSession(workspace, title, isPrivate, agentLabel, new Date(this.tick()).toISOString());
    record.firstThreadId = this.addThread(record).id;
    this.sessions.set(record.id, record);
    return record;
  }

  /** The session if it exists in this workspace; another workspace's session is as good as absent. */
  find(workspace: string, id: string): SessionRecord | undefined {
    const record = this.sessions.get(id.toLowerCase());
    return record?.workspace === workspace ? record : undefined;
  }

  /** Every session of a workspace (a misbehaving list that ignores its session filter reads them all). */
  inWorkspace(workspace: string): SessionRecord[] {
    return [...this.sessions.values()].filter((r) => r.workspace === workspace);
  }

  /** Any workspace: for the test hooks, which act as the service itself. */
  get(id: string): SessionRecord | undefined {
    return this.sessions.get(id.toLowerCase());
  }

  addThread(record: SessionRecord): ThreadRecord {
    const thread: ThreadRecord = { id: randomUUID(), taskId: this.taskId() };
    record.threads.set(thread.id, thread);
    return thread;
  }

  /** Stores a message; `given` (a test's planted one) overrides any field, unchecked by the contract. */
  store(record: SessionRecord, m: NewMessage, given?: Partial<Message>): Message {
    const createdMs = m.at ?? this.tick();
    const iso = new Date(createdMs).toISOString();
    const seq = this.seq++;
    const msg: Message = {
      id: this.countedIds ? `m${seq}` : randomUUID(),
      chat_id: record.id,
      chat_thread_id: m.threadId,
      task_id: m.taskId,
      role: m.role,
      type: m.type,
      message: m.message,
      ts: m.ts ? m.ts(createdMs) : null,
      created_at: iso,
      updated_at: iso,
      ...given,
    };
    record.messages.push({ seq, createdMs, msg: given ? msg : served(MESSAGE, msg) });
    if (msg.updated_at > record.updatedAt) record.updatedAt = msg.updated_at;
    return msg;
  }

  /** Attaches an artifact; a plan joins `planId`, else the latest plan, else starts one. */
  attach(record: SessionRecord, a: AddArtifactInput): ArtifactRecord {
    const plan = a.kind === 'plan';
    const latest = record.artifacts.findLast((x) => x.kind === 'plan');
    const artifact: ArtifactRecord = {
      id: randomUUID(),
      kind: a.kind,
      planId: plan ? (a.planId ?? (a.newPlan || !latest ? randomUUID() : latest.planId)) : null,
      fileName: a.fileName ?? (plan ? 'plan.md' : 'file.txt'),
      mimeType: a.mimeType ?? (plan ? 'text/markdown' : 'text/plain'),
      content: typeof a.content === 'string' ? Buffer.from(a.content) : a.content,
      createdAt: new Date(this.tick()).toISOString(),
      token: randomUUID().replace(/-/g, ''),
    };
    record.artifacts.push(artifact);
    return artifact;
  }

  /** The latest artifact of each plan, oldest plan first (the live service's `plan_artifact_ids`). */
  planArtifactIds(record: SessionRecord): string[] {
    const latest = new Map<string, string>();
    for (const a of record.artifacts) if (a.planId !== null) latest.set(a.planId, a.id);
    return [...latest.values()];
  }

  /** An artifact by the token of its download link, in any session. */
  byToken(token: string): ArtifactRecord | undefined {
    return [...this.sessions.values()].flatMap((r) => r.artifacts).find((a) => a.token === token);
  }

  /** Cancels every turn still running (on close). */
  cancelAllTurns(): void {
    for (const record of this.sessions.values()) {
      record.turn?.cancel();
      record.turn = undefined;
    }
  }
}
