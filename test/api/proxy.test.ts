// HTTP_PROXY / HTTPS_PROXY / NO_PROXY from the environment are honoured by the default dispatcher
// (undici's EnvHttpProxyAgent, which has no loopback exception: only NO_PROXY excludes a host).
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { KEY, json, session, startServer, type TestServer } from './helpers.js';

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
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) {
    delete process.env[name];
  }
  proxied.length = 0;
  tunnels.length = 0;
});

const options = { apiKey: KEY, pacing: false as const, retry: { maxRetries: 0 } };

describe('proxies from the environment', () => {
  it('honours the lower-case http_proxy (the first proxy set in this process)', async () => {
    process.env.http_proxy = proxyUrl;
    await new ApiClient({ ...options, baseUrl: target.url }).getSession(id);
    expect(proxied).toHaveLength(1);
  });

  it('sends an http request to a loopback target through HTTP_PROXY, in absolute form', async () => {
    process.env.HTTP_PROXY = proxyUrl;
    const got = await new ApiClient({ ...options, baseUrl: target.url }).getSession(id);
    expect(got.id).toBe(id);
    expect(proxied).toEqual([`GET ${target.url}/rest/v1/sessions/${id}`]);
    expect(target.seen.at(-1)!.headers.authorization).toBe(`ApiKey ${KEY}`);
  });

  it('goes direct for a host listed in NO_PROXY', async () => {
    process.env.HTTP_PROXY = proxyUrl;
    process.env.NO_PROXY = 'example.com,127.0.0.1';
    const before = target.seen.length;
    await new ApiClient({ ...options, baseUrl: target.url }).getSession(id);
    expect(proxied).toEqual([]);
    expect(target.seen.length).toBe(before + 1);
  });

  it('tunnels https targets through HTTPS_PROXY with CONNECT, and reports a refused tunnel', async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    const c = new ApiClient({ ...options, baseUrl: 'https://agents.example.test' });
    const err = (await c.getSession(id).catch((e: unknown) => e)) as ApiError;
    expect(tunnels).toEqual(['agents.example.test:443']);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('connection');
    expect(err.message).toMatch(/proxy/);
    expect(err.hint).toMatch(/HTTPS_PROXY/);
  });
});
