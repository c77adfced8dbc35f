// undici's proxy agent (EnvHttpProxyAgent, with ProxyAgent and its SOCKS client) is loaded only when a
// proxy variable is set: a run without one loads undici's Agent and request API, nothing more. This file
// imports no undici of its own, and vitest gives it a fresh process, so Node's module cache shows exactly
// what the client loaded (in dist/ the same modules are in http.cjs, see test/e2e/startup.test.ts).
import { createRequire } from 'node:module';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { FAST, json, session, startServer, type TestServer } from './helpers.js';

const loaded = () => Object.keys(createRequire(import.meta.url).cache);
const undiciFile = (f: string, name: string) =>
  f.replaceAll('\\', '/').includes(`/node_modules/undici/lib/dispatcher/${name}.js`);
const proxyModules = () =>
  loaded().filter((f) =>
    ['env-http-proxy-agent', 'proxy-agent', 'socks5-proxy-agent'].some((n) => undiciFile(f, n)),
  );

const id = randomUUID();
let target: TestServer;
let proxy: Server;
let proxyUrl: string;
const proxied: string[] = [];

beforeAll(async () => {
  target = await startServer((_req, res) => json(res, 200, session(target.url, id)));
  // A forwarding proxy for http:// targets (absolute-form requests, as the client sends them).
  proxy = createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const url = new URL(req.url!);
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
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await target.close();
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

describe('the proxy agent', () => {
  it('is not loaded by a request without a proxy variable (NO_PROXY alone is none)', async () => {
    // This file's process has loaded no proxy agent yet: otherwise the check below would prove nothing.
    expect(proxyModules()).toEqual([]);
    const client = new ApiClient({ ...FAST, baseUrl: target.url, env: { NO_PROXY: 'example.com' } });
    expect((await client.getSession(id)).id).toBe(id);
    // The module cache does show undici's files: the Agent that sent the request is there.
    expect(loaded().some((f) => undiciFile(f, 'agent'))).toBe(true);
    expect(proxyModules()).toEqual([]);
    expect(proxied).toEqual([]);
  });

  it('is loaded, and used, once HTTP_PROXY is set', async () => {
    const client = new ApiClient({ ...FAST, baseUrl: target.url, env: { HTTP_PROXY: proxyUrl } });
    expect((await client.getSession(id)).id).toBe(id);
    expect(proxied).toEqual([`GET ${target.url}/rest/v1/sessions/${id}`]);
    expect(proxyModules().some((f) => undiciFile(f, 'env-http-proxy-agent'))).toBe(true);
  });
});
