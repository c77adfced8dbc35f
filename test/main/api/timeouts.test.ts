// Time-outs fire, an abort cancels at once wherever the call is (in flight, reading a body, waiting to
// retry), and bodies are always consumed so that a pool of one connection never jams.
import { randomUUID } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.js';
import { HttpError } from '../../../src/core/api/errors.js';
import { ExitCode, fromHttpError } from '../../../src/core/errors/cli-error.js';
import { FAST, POLL, html, json, serve, session } from '../../support/test-server.js';

const id = randomUUID();
/** The session the servers below answer with, when they answer whole. */
const SERVED_ID = randomUUID();

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

describe('time-outs', () => {
  it('a server that never answers ends in a timeout error after the retry', async () => {
    const s = await serve(() => undefined);
    const c = new ApiClient({
      ...FAST,
      baseUrl: s.url,
      responseTimeoutMs: 50,
      // The whole exchange's deadline far off: this is the wait for the headers.
      requestTimeoutMs: 10_000,
      retry: { ...FAST.retry, maxRetries: 1 },
    });
    const err = await failure(c.getSession(id));
    expect(err.kind).toBe('timeout');
    // The time-out quoted is one attempt's; the message says how many there were, and over how long.
    expect(err.message).toMatch(
      new RegExp(`^no answer from ${s.url} within 50 ms \\(2 attempts in \\d+ms\\)$`),
    );
    expect(err.transient).toBe(true);
    expect(s.seen).toHaveLength(2);
  });

  it('a connection that is never made (a TLS handshake left unanswered) ends in a connect time-out; a POST goes again', async () => {
    // A TCP listener that accepts and never speaks: the https client's handshake never completes.
    const accepted: Socket[] = [];
    const silent = createNetServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const c = new ApiClient({
        ...FAST,
        baseUrl: `https://127.0.0.1:${port}`,
        connectTimeoutMs: 50,
        retry: { ...FAST.retry, maxRetries: 1 },
      });
      const err = await failure(c.createSession({ message: 'hi', agent_name: 'claude' }));
      expect(err.kind).toBe('timeout');
      expect(err.message).toMatch(
        new RegExp(`^no connection to https://127.0.0.1:${port} within 50 ms \\(2 attempts in \\d+ms\\)$`),
      );
      // Nothing reached a service: the POST was sent again, and its outcome is not in doubt.
      expect(err.outcomeUnknown).toBe(false);
      expect(accepted).toHaveLength(2);
    } finally {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a body that stalls half way ends in a timeout too', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"id":');
    });
    // The time-out bounds the wait for the head too: 50 ms let a loaded CI machine time out before the head
    // was read (no status). Half a second is the body's stall, never the head's.
    const c = new ApiClient({ ...FAST, baseUrl: s.url, responseTimeoutMs: 500, retry: { maxRetries: 0 } });
    const err = await failure(c.getSession(id));
    expect(err.kind).toBe('timeout');
    expect(err.status).toBe(200);
  });
});

describe('abort', () => {
  it('cancels a request in flight at once, with the signal’s reason', async () => {
    const s = await serve(() => undefined);
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const controller = new AbortController();
    const pending = failure(c.getSession(id, { signal: controller.signal }));
    await expect.poll(() => s.seen.length, POLL).toBe(1); // the server holds it, never answering
    controller.abort(new DOMException('deadline', 'TimeoutError'));
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect((err.cause as Error).name).toBe('TimeoutError');
    expect(fromHttpError(err).exitCode).toBe(ExitCode.TIMEOUT);
    expect(c.requestCount).toBe(1);
  });

  it('cancels during a retry backoff without another request', async () => {
    const s = await serve((_req, res) => json(res, 503, { error: 'down' }));
    const lines: string[] = [];
    const c = new ApiClient({
      ...FAST,
      baseUrl: s.url,
      retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
      debug: (line) => lines.push(line),
    });
    const controller = new AbortController();
    const pending = failure(c.getSession(id, { signal: controller.signal }));
    // The first attempt failed and the wait before the second has begun (up to a minute).
    await expect.poll(() => lines.some((l) => l.startsWith('retry 1/')), POLL).toBe(true);
    controller.abort('SIGINT');
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect(fromHttpError(err).exitCode).toBe(ExitCode.INTERRUPTED);
    expect(s.seen).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const s = await serve((_req, res) => json(res, 200, session(s.url, id)));
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const err = await failure(c.getSession(id, { signal: AbortSignal.abort('SIGTERM') }));
    expect(err.kind).toBe('aborted');
    expect(fromHttpError(err).exitCode).toBe(ExitCode.INTERRUPTED);
    // Nor does a POST: nothing can have been created.
    const post = await failure(
      c.createSession({ message: 'hi', agent_name: 'claude' }, { signal: AbortSignal.abort('SIGTERM') }),
    );
    expect(post.kind).toBe('aborted');
    expect(post.outcomeUnknown).toBe(false);
    expect(post.message).toBe('request cancelled');
    expect(s.seen).toHaveLength(0);
    expect(c.requestCount).toBe(0);
  });

  it('a POST cancelled after it left says it may have been created', async () => {
    const s = await serve(() => undefined);
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const controller = new AbortController();
    const pending = failure(
      c.createSession({ message: 'hi', agent_name: 'kimi' }, { signal: controller.signal }),
    );
    await expect.poll(() => s.seen.length, POLL).toBe(1); // the whole body has arrived
    controller.abort('SIGINT');
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect(err.outcomeUnknown).toBe(true);
    expect(err.message).toBe('request cancelled; the session may have been created');
    expect(fromHttpError(err).hint).toMatch(/not sent again.*dashboard/);
  });
});

describe('bodies are always consumed', () => {
  it('many error answers in a row over a pool of one connection do not jam it', async () => {
    let n = 0;
    const s = await serve((_req, res) => {
      n += 1;
      if (n % 3 === 0) return html(res, 502, 'Bad Gateway');
      if (n % 3 === 1) return json(res, 404, { error: 'x'.repeat(200_000) }); // larger than what is read
      return json(res, 401, { error: 'no' });
    });
    const dispatcher = new Agent({ connections: 1 });
    try {
      const c = new ApiClient({
        ...FAST,
        baseUrl: s.url,
        dispatcher,
        // One attempt each: the 502s after the service answered are not ridden out as an outage.
        retry: { maxRetries: 0, outageBudgetMs: 0 },
      });
      for (let i = 0; i < 60; i++) await expect(c.getSession(id)).rejects.toBeInstanceOf(HttpError);
      expect(s.seen).toHaveLength(60);
    } finally {
      await dispatcher.close();
    }
  });

  it('aborting while a body streams releases the connection', async () => {
    let streaming = 0;
    const s = await serve((req, res) => {
      if (req.url!.includes(id)) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"id":"', () => (streaming += 1));
        return;
      }
      json(res, 200, session(s.url, SERVED_ID));
    });
    const dispatcher = new Agent({ connections: 1 });
    try {
      const c = new ApiClient({ ...FAST, baseUrl: s.url, dispatcher });
      for (let i = 0; i < 5; i++) {
        const controller = new AbortController();
        const pending = failure(c.getSession(id, { signal: controller.signal }));
        // The headers and the start of the body are on their way; the rest never comes.
        await expect.poll(() => streaming, POLL).toBe(i + 1);
        controller.abort('SIGINT');
        expect((await pending).kind).toBe('aborted');
      }
      const other = await c.getSession(SERVED_ID);
      expect(other.id).toBe(SERVED_ID);
    } finally {
      await dispatcher.close();
    }
  });
});
