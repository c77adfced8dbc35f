// The parts of undici a request needs, and no more: its Agent (a connection pool per origin, with our
// time-outs), its request API and, only when a proxy variable is set, its EnvHttpProxyAgent. Not
// `import 'undici'`: its index loads all of undici (fetch, WebSocket, caches, mocks: 83 files), and its
// cookie module touches globalThis.Headers, which loads Node's own copy of undici as well. The build turns
// this file and what it imports into dist/http.cjs, which the client loads on its first request: a command
// that sends none never reads it. Import nothing of ours here: it would be a second copy in that file.
import type { Dispatcher, EnvHttpProxyAgent } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import dispatchRequest from 'undici/lib/api/api-request.js';

export { Agent };

/** The options of one request; `dispatcher` is required (undici's global one would load all of undici). */
export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici's `request(url, options)`, as its index defines it, without loading its index. */
export function request(url: string | URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const target = typeof url === 'string' ? new URL(url) : url;
  return dispatchRequest.call(dispatcher, {
    ...rest,
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
  });
}

/** undici's EnvHttpProxyAgent, loaded on first use (a proxy variable is set). */
export async function envHttpProxyAgent(): Promise<typeof EnvHttpProxyAgent> {
  return (await import('undici/lib/dispatcher/env-http-proxy-agent.js')).default;
}
