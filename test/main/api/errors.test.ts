// Every way a call can fail becomes one HttpError kind, one clean line, the server's own text when it gave
// one, and never the key; fromHttpError (src/core/errors.ts) gives each kind the contract's exit code and a hint.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.js';
import { HttpError } from '../../../src/core/api/errors.js';
import { ExitCode, HINTS, fromHttpError, isStop } from '../../../src/core/errors/cli-error.js';
import type { ServerResponse } from 'node:http';
import { FAST, KEY, POLL, html, json, startServer, type TestServer } from '../../support/test-server.js';

let server: TestServer;
const id = randomUUID();

/** Each scenario is reached through its own session id (GET, send) or message text (create). */
const scenarioIds = new Map<string, string>();
function idFor(scenario: string): string {
  let value = scenarioIds.get(scenario);
  if (value === undefined) {
    value = randomUUID();
    scenarioIds.set(value, scenario);
    scenarioIds.set(scenario, value);
  }
  return value;
}

function respond(scenario: string, res: ServerResponse): void {
  const status = Number(/^status\/(\d+)$/.exec(scenario)?.[1] ?? 0);
  if (scenario === 'html-401') return html(res, 401, '401 Authorization Required');
  if (scenario === 'html-403') return html(res, 403, '403 Forbidden');
  if (scenario === 'html-502') return html(res, 502, '502 Bad Gateway');
  if (scenario === 'long-404') return json(res, 404, { error: `Session ${'x'.repeat(500)}\nnot found` });
  if (scenario === 'echo-key') return json(res, 404, { error: `no session for key ${KEY} (ApiKey ${KEY})` });
  if (scenario === 'code-validation') {
    return json(res, 400, { error: 'agent_name is not supported', code: 'VALIDATION' });
  }
  if (scenario === 'plain-400') return json(res, 400, { error: 'Session has no prior messages' });
  if (scenario === 'not-json') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><head><title>Captive portal</title></head></html>');
    return;
  }
  if (scenario === 'wrong-shape') return json(res, 200, { hello: 'world' });
  if (scenario === 'redirect') {
    res.writeHead(302, { location: 'http://elsewhere.invalid/' });
    res.end();
    return;
  }
  return json(res, status || 500, { error: `scripted ${status}` });
}

beforeAll(async () => {
  server = await startServer((req, res, seen) => {
    const sessionId = /\/sessions\/([^/?]+)/.exec(req.url ?? '')?.[1];
    const scenario =
      sessionId === undefined
        ? (JSON.parse(seen.body) as { message: string }).message
        : (scenarioIds.get(sessionId) ?? 'status/404');
    respond(scenario, res);
  });
});
afterAll(() => server.close());

async function failWith(scenario: string, call: 'get' | 'create' | 'send' = 'get'): Promise<HttpError> {
  const c = new ApiClient({ ...FAST, baseUrl: server.url, retry: { maxRetries: 0, rateLimitedBudgetMs: 0 } });
  const promise =
    call === 'get'
      ? c.getSession(idFor(scenario))
      : call === 'create'
        ? c.createSession({ message: scenario, agent_name: 'claude' })
        : c.sendMessage(idFor(scenario), { message: 'hi' });
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

describe('HTTP statuses', () => {
  it.each([
    ['status/400', 'get', 'bad_request', ExitCode.FAILURE],
    ['status/400', 'create', 'validation', ExitCode.FAILURE],
    ['code-validation', 'send', 'validation', ExitCode.FAILURE],
    ['plain-400', 'send', 'bad_request', ExitCode.FAILURE],
    ['status/401', 'get', 'auth', ExitCode.AUTH],
    ['status/403', 'get', 'forbidden', ExitCode.AUTH],
    ['status/404', 'get', 'not_found', ExitCode.NOT_FOUND],
    ['status/413', 'send', 'too_large', ExitCode.FAILURE],
    ['status/415', 'create', 'unsupported', ExitCode.FAILURE],
    ['status/422', 'get', 'validation', ExitCode.FAILURE],
    ['status/422', 'create', 'validation', ExitCode.FAILURE],
    ['status/429', 'get', 'rate_limited', ExitCode.TIMEOUT],
    ['status/500', 'get', 'server', ExitCode.FAILURE],
    ['status/503', 'get', 'server', ExitCode.FAILURE],
    ['status/409', 'get', 'unexpected', ExitCode.FAILURE],
    ['redirect', 'get', 'unexpected', ExitCode.FAILURE],
    ['not-json', 'get', 'unreadable', ExitCode.FAILURE],
    ['wrong-shape', 'get', 'unexpected', ExitCode.FAILURE],
  ] as const)('%s on %s → %s, exit %i', async (scenario, call, kind, exitCode) => {
    const err = await failWith(scenario, call);
    expect(err.kind).toBe(kind);
    const cli = fromHttpError(err);
    expect(cli.exitCode).toBe(exitCode);
    expect(cli.hint).toBe(HINTS[kind]);
    expect(cli.message).toBe(err.message);
    expect(err.message).not.toContain('\n');
  });

  it('401 and 403 HTML pages become one clean line with the status and the title', async () => {
    const e401 = await failWith('html-401');
    expect(e401.message).toBe('authentication failed (HTTP 401): HTML page "401 Authorization Required"');
    expect(fromHttpError(e401).hint).toBe('check the API key: agents login, or AGENTS_API_KEY');
    expect(e401.serverMessage).toBeUndefined();
    const e403 = await failWith('html-403');
    expect(e403.message).toBe('permission denied (HTTP 403): HTML page "403 Forbidden"');
    expect(e403.message).not.toMatch(/<|nginx|padding/);
  });

  it('a gateway 502 page is summarised, never dumped', async () => {
    const err = await failWith('html-502');
    expect(err.message).toBe('the service failed (HTTP 502): HTML page "502 Bad Gateway"');
    expect(err.transient).toBe(true);
  });

  it("carries a JSON 404's error text, with the status and a hint", async () => {
    const err = await failWith('status/404');
    expect(err.status).toBe(404);
    expect(err.serverMessage).toBe('scripted 404');
    expect(err.message).toBe('not found (HTTP 404): scripted 404');
    expect(fromHttpError(err).hint).toMatch(/sessions of another workspace are reported as not found/);
  });

  it('caps a long server message and keeps it on one line', async () => {
    const err = await failWith('long-404');
    expect(err.serverMessage!.length).toBeLessThanOrEqual(200);
    expect(err.message.length).toBeLessThanOrEqual(300);
    expect(err.message).not.toContain('\n');
  });

  it('never repeats the key, even when the server echoes it', async () => {
    const err = await failWith('echo-key');
    expect(err.message).not.toContain(KEY);
    expect(err.serverMessage).not.toContain(KEY);
    expect(err.message).toContain('***');
  });

  it('a code in the body picks validation over the endpoint default', async () => {
    const err = await failWith('code-validation', 'send');
    expect(err.message).toBe(
      'the service rejected the request as invalid (HTTP 400 VALIDATION): agent_name is not supported',
    );
  });
});

describe('failures without an answer', () => {
  it('a refused connection is a connection error, exit 1, never sent', async () => {
    const s = await startServer(() => undefined);
    const url = s.url;
    await s.close();
    const c = new ApiClient({ ...FAST, baseUrl: url, retry: { maxRetries: 0 } });
    const err = (await c.getSession(id).catch((e: unknown) => e)) as HttpError;
    expect(err.kind).toBe('connection');
    expect(err.neverSent).toBe(true);
    expect(fromHttpError(err).exitCode).toBe(ExitCode.FAILURE);
    expect(err.message).toMatch(/connection refused/);
  });

  it('an abort is kind aborted with the reason as cause and reason, and maps to 130', async () => {
    const s = await startServer(() => undefined); // never answers
    try {
      const c = new ApiClient({ ...FAST, baseUrl: s.url });
      const controller = new AbortController();
      const pending = c.getSession(id, { signal: controller.signal }).catch((e: unknown) => e);
      await expect.poll(() => s.seen.length, POLL).toBe(1); // in flight
      controller.abort('SIGINT');
      const err = (await pending) as HttpError;
      expect(err.kind).toBe('aborted');
      expect(err.cause).toBe('SIGINT');
      expect(err.reason).toBe('SIGINT');
      expect(isStop(err.reason)).toBe(true);
      expect(fromHttpError(err).exitCode).toBe(ExitCode.INTERRUPTED);
      expect(fromHttpError(err).hint).toBe(HINTS.aborted);
      // The reader of stdout went away: a silent 0, not an interruption.
      const piped = new HttpError({ kind: 'aborted', message: 'request cancelled', reason: 'EPIPE' });
      expect([fromHttpError(piped).exitCode, fromHttpError(piped).silent]).toEqual([ExitCode.OK, true]);
      expect(isStop(new Error('x'))).toBe(false);
    } finally {
      await s.close();
    }
  });

  it('ids are checked before anything is sent', async () => {
    // The CLI validates ids while parsing arguments; one that is no UUID here is a programming error.
    const c = new ApiClient({ ...FAST, baseUrl: server.url });
    const before = server.seen.length;
    await expect(c.getSession('../admin')).rejects.toThrow(
      new TypeError('invalid session id "../admin": expected a UUID'),
    );
    await expect(c.listMessages({ sessionId: id, threadId: 'nope' }, {})).rejects.toBeInstanceOf(TypeError);
    await expect(c.sendMessage('nope', { message: 'hi' })).rejects.toBeInstanceOf(TypeError);
    const pages = c.iterateMessages({ sessionId: `${id}/../x` }, {});
    await expect(pages[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(TypeError);
    expect(server.seen.length).toBe(before);
    expect(c.requestCount).toBe(0);
  });
});
