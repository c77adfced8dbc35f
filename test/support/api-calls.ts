// Shared by the emulator's tests: start emulators that are closed after each test, and talk to them
// over real HTTP with undici (no client code of ours).
import { afterEach } from 'vitest';
import { request } from 'undici';
import type { Message, MessagePage, Session } from '../../src/api/types.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export const KEY = 'agents-dev-key';
const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** An emulator on a free port, ten times faster than real time unless told otherwise. */
export async function start(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const em = await startEmulator({ port: 0, timeScale: 0.1, rateLimit: false, ...opts });
  running.push(em);
  return em;
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value (not undefined); fails after `ms` so a broken feature cannot hang. */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

/** Waits for the final message of a thread in the emulator's store. */
export function finalOf(em: RunningEmulator, sessionId: string, threadId: string): Promise<Message> {
  return until(() =>
    em.messages(sessionId).find((m) => m.chat_thread_id === threadId && m.type === 'final_message'),
  );
}

/** The session's stored messages of one thread and role. */
export function ofThread(em: RunningEmulator, sessionId: string, threadId: string, role = 'assistant') {
  return em.messages(sessionId).filter((m) => m.chat_thread_id === threadId && m.role === role);
}

export const ms = (iso: string) => Date.parse(iso);
