// Time-outs fire, an abort cancels at once wherever the call is (in flight, reading a body, waiting to
// retry), and bodies are always consumed so that a pool of one connection never jams.
import { randomUUID } from 'node:crypto';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { ExitCode } from '../../src/errors.js';
import { FAST, html, json, session, startServer, type TestServer } from './helpers.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}

const id = randomUUID();

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('time-outs', () => {
  it('a server that never answers ends in a timeout error after the retry', async () => {
    const s = await serve(() => undefined);
    const c = new ApiClient({
      ...FAST,
      baseUrl: s.url,
      responseTimeoutMs: 50,
      retry: { ...FAST.retry, maxRetries: 1 },
    });
    const err = await failure(c.getSession(id));
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(`no answer from ${s.url} within 50 ms`);
    expect(err.transient).toBe(true);
    expect(s.seen).toHaveLength(2);
  });

  it('a body that stalls half way ends in a timeout too', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"id":');
    });
    const c = new ApiClient({ ...FAST, baseUrl: s.url, responseTimeoutMs: 50, retry: { maxRetries: 0 } });
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
    setTimeout(() => controller.abort(new DOMException('deadline', 'TimeoutError')), 20);
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect((err.cause as Error).name).toBe('TimeoutError');
    expect(err.exitCode).toBe(ExitCode.TIMEOUT);
  });

  it('cancels during a retry backoff without another request', async () => {
    const s = await serve((_req, res) => json(res, 503, { error: 'down' }));
    const c = new ApiClient({ ...FAST, baseUrl: s.url, retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const controller = new AbortController();
    const pending = failure(c.getSession(id, { signal: controller.signal }));
    setTimeout(() => controller.abort('SIGINT'), 50);
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect(s.seen).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const s = await serve((_req, res) => json(res, 200, session(s.url, id)));
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const err = await failure(c.getSession(id, { signal: AbortSignal.abort('SIGTERM') }));
    expect(err.kind).toBe('aborted');
    expect(err.exitCode).toBe(ExitCode.INTERRUPTED);
    expect(s.seen).toHaveLength(0);
  });

  it('a POST cancelled after it left says it may have been created', async () => {
    const s = await serve(() => undefined);
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const controller = new AbortController();
    const pending = failure(
      c.createSession({ message: 'hi', agent_name: 'kimi' }, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort('SIGINT'), 50);
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect(err.outcomeUnknown).toBe(true);
    expect(err.message).toBe('request cancelled; the session may have been created');
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
      const c = new ApiClient({ ...FAST, baseUrl: s.url, dispatcher, retry: { maxRetries: 0 } });
      for (let i = 0; i < 60; i++) await expect(c.getSession(id)).rejects.toBeInstanceOf(ApiError);
      expect(s.seen).toHaveLength(60);
    } finally {
      await dispatcher.close();
    }
  });

  it('aborting while a body streams releases the connection', async () => {
    const s = await serve((req, res) => {
      if (req.url!.includes(id)) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"id":"');
        return;
      }
      json(res, 200, session(s.url));
    });
    const dispatcher = new Agent({ connections: 1 });
    try {
      const c = new ApiClient({ ...FAST, baseUrl: s.url, dispatcher });
      for (let i = 0; i < 5; i++) {
        const controller = new AbortController();
        const pending = failure(c.getSession(id, { signal: controller.signal }));
        setTimeout(() => controller.abort('SIGINT'), 10);
        expect((await pending).kind).toBe('aborted');
      }
      const other = await c.getSession(randomUUID());
      expect(other.id).toBeTruthy();
    } finally {
      await dispatcher.close();
    }
  });
});
