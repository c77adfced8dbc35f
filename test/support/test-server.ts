// Small real HTTP servers on loopback for the client's tests: they record what they receive and answer
// whatever a test scripts, including the misbehaviour of gateways and networks.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Message } from '../../src/core/api/types.js';
import { KEY } from './key.js';

export { KEY };

/**
 * For expect.poll: how a test waits for a condition (a request arrived, a retry began) instead of
 * sleeping; a condition never met fails the test after the timeout.
 */
export const POLL = { interval: 2, timeout: 60_000 };

/** A request as the server saw it. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request's headers arrived. */
  at: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => unknown;

export interface TestServer {
  url: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

const running: TestServer[] = [];

/**
 * Closes the servers `serve()` and `sessionServer()` started; setup.ts calls it after every test (the hook
 * is there for the reason closeTestEmulators gives).
 */
export async function closeTestServers(): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.close()));
}

/** A server closed once the test ends. */
export async function serve(handler: Handler, port = 0): Promise<TestServer> {
  const s = await startServer(handler, port);
  running.push(s);
  return s;
}

/** Starts a server on 127.0.0.1, on a free port unless one is given; the caller closes it. */
export async function startServer(handler: Handler, port = 0): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
      };
      seen.push(entry);
      void Promise.resolve(handler(req, res, entry)).catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : undefined);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Answers an HTML page, as a gateway does. */
export function html(res: ServerResponse, status: number, title: string): void {
  const page = `<!DOCTYPE html>\n<html><head><title>${title}</title>\n<style>body{font:14px}</style></head>\n<body><h1>${title}</h1>\n<hr><center>nginx</center>\n${'<p>padding</p>\n'.repeat(40)}</body></html>`;
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) });
  res.end(page);
}

/** Sends headers and half a JSON body, then drops the connection. */
export function truncate(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.write(text.slice(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
}

/** Drops the connection without an answer. */
export function reset(req: IncomingMessage): void {
  req.socket.destroy();
}

/** A deterministic PRNG (mulberry32), so fault patterns repeat run to run: the emulator's own. */
export { seededRandom as seeded } from '../../src/emulator/faults.js';

/** `n` assistant messages of one session, oldest first, one second apart. */
export function makeMessages(sessionId: string, n: number): Message[] {
  const start = Date.parse('2025-01-01T00:00:00Z');
  return Array.from({ length: n }, (_, i) => {
    const created = new Date(start + i * 1000).toISOString();
    return {
      id: randomUUID(),
      chat_id: sessionId,
      chat_thread_id: null,
      task_id: sessionId,
      role: 'assistant' as const,
      type: 'message' as const,
      message: `message ${i}`,
      ts: start / 1000 + i,
      created_at: created,
      updated_at: created,
    };
  });
}

/** Serves List session messages over `messages` (oldest first), honouring page, limit and direction. */
export function listPage(base: string, reqUrl: string, messages: Message[]): unknown {
  const url = new URL(reqUrl, base);
  const page = Number(url.searchParams.get('page') ?? '1');
  const limit = Number(url.searchParams.get('limit') ?? '50');
  const ordered = url.searchParams.get('direction') === 'asc' ? messages : [...messages].reverse();
  const items = ordered.slice((page - 1) * limit, page * limit);
  return {
    items,
    meta: { total: messages.length, page, limit, total_pages: Math.ceil(messages.length / limit) },
    _links: {
      self: { href: `${base}${url.pathname}${url.search}` },
      new_messages: { href: `${base}${url.pathname}${url.search}&gts=1` },
    },
  };
}

/** A Session object as the service would return it. */
export function session(base: string, id: string = randomUUID()): Record<string, unknown> {
  return {
    id,
    title: 'a session',
    pull_requests: [],
    source_url: null,
    is_archived: false,
    is_private: false,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    thread_id: null,
    session_html_url: `${base}/app/sessions/${id}`,
    _links: {
      self: { href: `${base}/rest/v1/sessions/${id}` },
      messages: { href: `${base}/rest/v1/sessions/${id}/messages` },
      thread: null,
      final_message: null,
    },
  };
}

/** Fast retries and no pacing, so tests that are not about either run quickly. */
export const FAST = {
  apiKey: KEY,
  retry: { baseDelayMs: 2, maxDelayMs: 10 },
  pacing: false as const,
};

/** The most of `arrivals` (their `at`, ms) in any span of `windowMs`: what a rate limit would have seen. */
export function busiestWindow(arrivals: readonly { at: number }[], windowMs: number): number {
  const sorted = arrivals.map((a) => a.at).sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/**
 * A server answering every request with a Session (or `status` with an error), after `delayMs`; closed once
 * the test ends.
 */
export async function sessionServer(o: { status?: number; delayMs?: number } = {}): Promise<TestServer> {
  const s = await serve((req, res) => {
    const id: string = /\/sessions\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? randomUUID();
    const status = o.status ?? 200;
    setTimeout(
      () => json(res, status, status === 200 ? session(s.url, id) : { error: 'down' }),
      o.delayMs ?? 0,
    );
  });
  return s;
}
