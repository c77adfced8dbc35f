// HTTP_PROXY / HTTPS_PROXY / NO_PROXY from the environment the client is given (ClientOptions.env, the
// run's IO.env) are honoured by the default dispatcher (undici's EnvHttpProxyAgent, which has no loopback
// exception: only NO_PROXY excludes a host). process.env is never read; without a proxy the client sends
// through Node's own HTTP client.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Agent, EnvHttpProxyAgent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.js';
import { proxyDispatcher, proxySettings, wireFor } from '../../../src/core/api/exchange.js';
import { HttpError } from '../../../src/core/api/errors.js';
import { fromHttpError } from '../../../src/core/errors/cli-error.js';
import { KEY, json, session, startServer, type TestServer } from '../../support/test-server.js';

/** A forwarding proxy that records the request lines it receives and refuses CONNECT tunnels. */
let proxy: Server;
let proxyUrl: string;
const proxied: string[] = [];
const tunnels: string[] = [];
let target: TestServer;
const id = randomUUID();

beforeAll(async () => {
  target = await startServer((_req, res) => json(res, 200, session(target.url, id)));
  proxy = createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const url = new URL(req.url!); // absolute-form, as a proxy receives it
    const upstream = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket) => {
    tunnels.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await target.close();
});

afterEach(() => {
  proxied.length = 0;
  tunnels.length = 0;
});

const options = { apiKey: KEY, pacing: false as const, retry: { maxRetries: 0 } };

describe('proxies from the environment', () => {
  it('honours the lower-case http_proxy, before HTTP_PROXY', async () => {
    const unused = 'http://127.0.0.1:9'; // nothing listens there
    await new ApiClient({
      ...options,
      baseUrl: target.url,
      env: { http_proxy: proxyUrl, HTTP_PROXY: unused },
    }).getSession(id);
    expect(proxied).toHaveLength(1);
  });

  it('sends an http request to a loopback target through HTTP_PROXY, in absolute form', async () => {
    const got = await new ApiClient({
      ...options,
      baseUrl: target.url,
      env: { HTTP_PROXY: proxyUrl },
    }).getSession(id);
    expect(got.id).toBe(id);
    expect(proxied).toEqual([`GET ${target.url}/rest/v1/sessions/${id}`]);
    expect(target.seen.at(-1)!.headers.authorization).toBe(`ApiKey ${KEY}`);
  });

  it('goes direct for a host listed in NO_PROXY', async () => {
    const before = target.seen.length;
    await new ApiClient({
      ...options,
      baseUrl: target.url,
      env: { HTTP_PROXY: proxyUrl, NO_PROXY: 'example.com,127.0.0.1' },
    }).getSession(id);
    expect(proxied).toEqual([]);
    expect(target.seen.length).toBe(before + 1);
  });

  it('tunnels https targets through HTTPS_PROXY with CONNECT, and reports a refused tunnel', async () => {
    const c = new ApiClient({
      ...options,
      baseUrl: 'https://agents.example.test',
      env: { HTTPS_PROXY: proxyUrl },
    });
    const err = (await c.getSession(id).catch((e: unknown) => e)) as HttpError;
    expect(tunnels).toEqual(['agents.example.test:443']);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.kind).toBe('connection');
    expect(err.message).toMatch(/proxy/);
    expect(fromHttpError(err).hint).toMatch(/HTTPS_PROXY/);
  });

  it('never reads the proxy variables of process.env: only the environment it is given counts', async () => {
    const names = ['HTTP_PROXY', 'http_proxy'] as const;
    const saved = names.map((n) => process.env[n]);
    for (const n of names) process.env[n] = proxyUrl;
    try {
      const before = target.seen.length;
      await new ApiClient({ ...options, baseUrl: target.url }).getSession(id);
      await new ApiClient({ ...options, baseUrl: target.url, env: {} }).getSession(id);
      expect(proxied).toEqual([]);
      expect(target.seen.length).toBe(before + 2);
    } finally {
      names.forEach((n, i) => {
        if (saved[i] === undefined) delete process.env[n];
        else process.env[n] = saved[i];
      });
    }
  });

  it("sends through Node's own client without a proxy (NO_PROXY alone is none), else one proxy client per set of settings", async () => {
    expect(wireFor({ env: {} })).toBe('node');
    expect(wireFor({ env: { NO_PROXY: 'example.com', https_proxy: '' } })).toBe('node');
    expect(wireFor({ env: { HTTPS_PROXY: proxyUrl } })).toBe('undici');
    expect(wireFor({ env: {}, dispatcher: new Agent() })).toBe('undici');
    const settings = proxySettings({ HTTPS_PROXY: proxyUrl });
    const proxied = await proxyDispatcher(1_000, 2_000, settings);
    expect(proxied).toBeInstanceOf(EnvHttpProxyAgent);
    expect(await proxyDispatcher(1_000, 2_000, settings)).toBe(proxied);
  });
});
