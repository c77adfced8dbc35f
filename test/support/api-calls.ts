// Shared by the emulator's tests: start emulators that are closed after each test, and talk to them
// over real HTTP with undici (no client code of ours).
import { request } from 'undici';
import type { Message, MessagePage, Session } from '../../src/core/api/types.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { emulator, endTurn } from './emulator.js';
import { KEY } from './key.js';
import { until } from './until.js';

export { KEY, until };

/** An emulator closed after the test (test/support/emulator.ts: held turns on a clock of requests). */
export function start(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  return emulator(opts);
}

/** One response, read whole. */
export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** A request to `path` (absolute URL, or a path under the emulator's URL). */
export async function call(
  em: RunningEmulator,
  method: string,
  path: string,
  o: CallOptions = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key !== null) headers.authorization = `ApiKey ${o.key ?? KEY}`;
  let body: string | Buffer | undefined = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = path.startsWith('http') ? path : `${em.url}${path}`;
  const res = await request(url, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** Creates a session through the API and returns the Session. */
export async function create(em: RunningEmulator, message: string, extra: object = {}, key?: string) {
  const res = await call(em, 'POST', '/rest/v1/sessions', {
    body: { agent_name: 'claude', message, ...extra },
    key,
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json as Session;
}

export async function list(em: RunningEmulator, path: string, key?: string) {
  const res = await call(em, 'GET', path, { key });
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
  return res.json as MessagePage;
}

/** The final message of a thread in the emulator's store: a held turn is ended, a timed one waited for. */
export function finalOf(em: RunningEmulator, sessionId: string, threadId: string): Promise<Message> {
  endTurn(em, sessionId);
  return until(() =>
    em.messages(sessionId).find((m) => m.chat_thread_id === threadId && m.type === 'final_message'),
  );
}

/** The session's stored messages of one thread and role. */
export function ofThread(em: RunningEmulator, sessionId: string, threadId: string, role = 'assistant') {
  return em.messages(sessionId).filter((m) => m.chat_thread_id === threadId && m.role === role);
}

export const ms = (iso: string) => Date.parse(iso);
