// An ACP client as an editor runs one: the SDK's own client app over `agents acp`'s stdio, in this process
// through main(argv, io) (most tests) or over the built binary's pipes. Every session/update and every
// prompt's end is kept in one log, in the order the client saw them, so a test checks order, not time.
import { spawn } from 'node:child_process';
import { PassThrough, Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientConnection,
  type PromptResponse,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { Tuning } from '../../src/core/io/io.js';
import { FAST_TUNING, runPiped } from './main.js';
import { BIN, ROOT } from './run-cli.js';

/** What the client saw, in order: an update of a session, or a prompt's end. */
export type AcpEvent =
  | { kind: 'update'; sessionId: string; update: SessionUpdate }
  | { kind: 'stop'; sessionId: string; stopReason: PromptResponse['stopReason'] };

/** A connected client and a way to end it. */
export interface AcpRun {
  connection: ClientConnection;
  events: AcpEvent[];
  stderr: () => string;
  /** session/prompt with text, its end logged. */
  prompt: (sessionId: string, text: string) => Promise<PromptResponse>;
  /** Closes the agent's stdin and resolves once the run has ended, with its exit code. */
  close: () => Promise<number | null>;
}

/** The updates of `sessionId`, in order. */
export function updatesOf(events: readonly AcpEvent[], sessionId: string): SessionUpdate[] {
  return events.flatMap((e) => (e.kind === 'update' && e.sessionId === sessionId ? [e.update] : []));
}

/** An update's text, for a message chunk. */
export function chunkText(u: SessionUpdate): string {
  if (u.sessionUpdate !== 'agent_message_chunk' && u.sessionUpdate !== 'user_message_chunk') return '';
  return u.content.type === 'text' ? u.content.text : '';
}

function connect(to: Writable, from: Readable, done: Promise<number | null>, stderr: () => string): AcpRun {
  const events: AcpEvent[] = [];
  const app = client({ name: 'agents-test' }).onNotification('session/update', ({ params }) => {
    events.push({ kind: 'update', sessionId: params.sessionId, update: params.update });
  });
  const stream = ndJsonStream(
    Writable.toWeb(to) as WritableStream<Uint8Array>,
    Readable.toWeb(from) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  return {
    connection,
    events,
    stderr,
    prompt: async (sessionId, text) => {
      const r = await connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text }],
      });
      events.push({ kind: 'stop', sessionId, stopReason: r.stopReason });
      return r;
    },
    close: async () => {
      to.end();
      const code = await done;
      connection.close();
      return code;
    },
  };
}

/** `agents acp …args` in this process, through main(argv, io), the SDK's client on its stdin and stdout. */
export function acpInProcess(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
  tuning: Tuning = FAST_TUNING,
): AcpRun {
  const { stdin, stdout, stderr, done } = runPiped(['acp', ...args], env, tuning);
  return connect(stdin, stdout, done, stderr);
}

/** The built binary's `agents acp …args`, the client on its pipes; `raw` is every byte of its stdout. */
export function acpProcess(env: NodeJS.ProcessEnv, args: string[] = []): AcpRun & { raw: () => string } {
  const child = spawn(process.execPath, [BIN, 'acp', ...args], { env, cwd: ROOT, stdio: 'pipe' });
  let stderr = '';
  let raw = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const out = new PassThrough();
  child.stdout.on('data', (c: Buffer) => (raw += c.toString('utf8')));
  child.stdout.pipe(out);
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { ...connect(child.stdin, out, done, () => stderr), raw: () => raw };
}

/** initialize, as an editor opens the connection. */
export function initialize(run: AcpRun) {
  return run.connection.agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: 'agents-test', version: '0.0.0' },
  });
}
