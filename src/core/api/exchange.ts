// How the client puts a request on the wire, chosen once per client: Node's own HTTP client (plain-http.ts),
// or undici (by import()) where a proxy or a caller's dispatcher needs it: its EnvHttpProxyAgent with our
// time-outs, and the proxy settings (lower-case forms first, as curl reads them) that the caller hands over,
// for undici never reads the environment itself.
import type { Dispatcher } from 'undici';
import { HttpError } from './errors.js';
import { plainRequest } from './plain-http.js';
import type { Exchange, TimeoutFigures } from './response.js';
import { errorMessage } from '../../util/text.js';

/** The proxy variables, as the caller's environment holds them. */
export type ProxyEnv = Partial<Record<'http_proxy' | 'HTTP_PROXY' | 'https_proxy' | 'HTTPS_PROXY' | 'no_proxy' | 'NO_PROXY', string>>;

/** The proxy settings in force: undefined values mean none. */
export function proxySettings(env: ProxyEnv) {
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

/** The proxy client for these time-outs and settings, one for the process (its connections reused across clients). */
export async function proxyDispatcher(
  connectTimeoutMs: number,
  responseTimeoutMs: number,
  proxy: ReturnType<typeof proxySettings>,
): Promise<Dispatcher> {
  const id = JSON.stringify([connectTimeoutMs, responseTimeoutMs, proxy]);
  let dispatcher = shared.get(id);
  if (dispatcher !== undefined) return dispatcher;
  const { EnvHttpProxyAgent } = await import('./undici-http.js');
  try {
    dispatcher = new EnvHttpProxyAgent({
      connect: { timeout: connectTimeoutMs },
      headersTimeout: responseTimeoutMs,
      bodyTimeout: responseTimeoutMs,
      // Explicit, so undici does not read process.env: '' means "no proxy for this scheme".
      httpProxy: proxy.httpProxy ?? '',
      httpsProxy: proxy.httpsProxy ?? '',
      noProxy: proxy.noProxy ?? '',
      // The connection to the proxy itself gets the same connect time-out.
      proxyTls: { timeout: connectTimeoutMs },
      // http:// targets go through the proxy as absolute-form requests, as curl does; plain proxies often
      // refuse CONNECT to ports other than 443. https:// targets are always tunnelled with CONNECT.
      proxyTunnel: false,
    });
  } catch (err) {
    // A proxy address undici cannot parse: say which setting, without echoing it (it may hold a password).
    throw new HttpError({
      kind: 'connection',
      transient: false,
      cause: err,
      message: `invalid proxy setting: ${errorMessage(err)}`,
      advice: 'check HTTPS_PROXY / HTTP_PROXY: they need a full address such as http://proxy.example:3128',
    });
  }
  shared.set(id, dispatcher);
  return dispatcher;
}

type ExchangeSettings = TimeoutFigures & { env: ProxyEnv; dispatcher?: Dispatcher | undefined };

/**
 * Node's own HTTP client (about 5 ms to load) unless a proxy applies or the caller gives a dispatcher:
 * undici's index costs a run 60 to 70 ms and about 15 MB, so only a run that needs it pays for it.
 */
export function wireFor(settings: Pick<ExchangeSettings, 'env' | 'dispatcher'>): 'node' | 'undici' {
  const { httpProxy, httpsProxy } = proxySettings(settings.env);
  // NO_PROXY alone is no proxy.
  return settings.dispatcher === undefined && httpProxy === undefined && httpsProxy === undefined ? 'node' : 'undici';
}

/** Either way the time-outs are the same, and the HTTP code loads with the first request (a command that sends none loads none). */
export function exchangeFor(settings: ExchangeSettings): Exchange {
  const { connectTimeoutMs, responseTimeoutMs, env, dispatcher } = settings;
  if (wireFor(settings) === 'node') {
    // async: a signal aborted before the call is a rejection, as from the wire undici is.
    return async (url, options) => plainRequest(url, options, settings);
  }
  return async (url, options) => {
    const { keepWasmBaseline, request } = await import('./undici-http.js');
    keepWasmBaseline();
    const res = await request(url, {
      ...options,
      dispatcher: dispatcher ?? (await proxyDispatcher(connectTimeoutMs, responseTimeoutMs, proxySettings(env))),
      // Per request as well as on the dispatcher: a caller's own dispatcher (or undici's proxy client,
      // which does not pass them on) still gets our time-outs.
      headersTimeout: responseTimeoutMs,
      bodyTimeout: responseTimeoutMs,
    });
    return { statusCode: res.statusCode, headers: res.headers, body: res.body };
  };
}
