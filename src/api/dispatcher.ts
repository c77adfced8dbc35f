// undici's connection pools with our time-outs, shared by the clients of a process: its EnvHttpProxyAgent
// when a proxy is configured (HTTP_PROXY, HTTPS_PROXY, NO_PROXY; lower-case forms first, as curl reads
// them), which is when the client sends through undici (exchange.ts), else its plain Agent. The proxy
// settings are handed over explicitly, so undici never reads the environment itself and the caller
// decides which environment counts.
import type { Dispatcher } from 'undici';
import { ApiError } from './errors.js';

/** The proxy variables, as the caller's environment holds them. */
export interface ProxyEnv {
  http_proxy?: string;
  HTTP_PROXY?: string;
  https_proxy?: string;
  HTTPS_PROXY?: string;
  no_proxy?: string;
  NO_PROXY?: string;
}

/** The proxy settings in force: undefined values mean none. */
export function proxySettings(env: ProxyEnv): { httpProxy?: string; httpsProxy?: string; noProxy?: string } {
  const pick = (lower: string | undefined, upper: string | undefined) => {
    const v = lower ?? upper;
    return v === undefined || v === '' ? undefined : v;
  };
  return {
    httpProxy: pick(env.http_proxy, env.HTTP_PROXY),
    httpsProxy: pick(env.https_proxy, env.HTTPS_PROXY),
    noProxy: pick(env.no_proxy, env.NO_PROXY),
  };
}

const shared = new Map<string, Dispatcher>();

/**
 * One dispatcher per set of time-outs and proxy settings, for the whole process (connections are reused
 * across the clients of one run and, in tests, across runs).
 */
export async function defaultDispatcher(
  connectTimeoutMs: number,
  responseTimeoutMs: number,
  env: ProxyEnv,
): Promise<Dispatcher> {
  const proxy = proxySettings(env);
  const id = JSON.stringify([connectTimeoutMs, responseTimeoutMs, proxy]);
  let dispatcher = shared.get(id);
  if (dispatcher !== undefined) return dispatcher;
  const common = {
    connect: { timeout: connectTimeoutMs },
    headersTimeout: responseTimeoutMs,
    bodyTimeout: responseTimeoutMs,
  };
  if (proxy.httpProxy === undefined && proxy.httpsProxy === undefined) {
    const { Agent } = await import('./undici-http.js');
    dispatcher = new Agent(common);
  } else {
    const { EnvHttpProxyAgent } = await import('./undici-http.js');
    dispatcher = proxyAgent(
      () =>
        new EnvHttpProxyAgent({
          ...common,
          // Explicit, so undici does not read process.env: '' means "no proxy for this scheme".
          httpProxy: proxy.httpProxy ?? '',
          httpsProxy: proxy.httpsProxy ?? '',
          noProxy: proxy.noProxy ?? '',
          // The connection to the proxy itself gets the same connect time-out.
          proxyTls: { timeout: connectTimeoutMs },
          // http:// targets go through the proxy as absolute-form requests, as curl does; plain proxies often
          // refuse CONNECT to ports other than 443. https:// targets are always tunnelled with CONNECT.
          proxyTunnel: false,
        }),
    );
  }
  shared.set(id, dispatcher);
  return dispatcher;
}

/** undici refuses a proxy address it cannot parse: say which setting, without echoing it (it may hold a password). */
function proxyAgent(make: () => Dispatcher): Dispatcher {
  try {
    return make();
  } catch (err) {
    throw new ApiError({
      kind: 'connection',
      transient: false,
      cause: err,
      message: `invalid proxy setting: ${err instanceof Error ? err.message : String(err)}`,
      advice: 'check HTTPS_PROXY / HTTP_PROXY: they need a full address such as http://proxy.example:3128',
    });
  }
}
