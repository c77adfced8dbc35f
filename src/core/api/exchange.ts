// How the client puts one request on the wire, chosen once per client: Node's own HTTP client, or undici
// where a proxy or a caller's dispatcher needs it. Either loads with the first request (node:http through
// getBuiltinModule in plain-http.ts, which is small and imported as any module is; undici's module by import()).
import type { Dispatcher } from 'undici';
import { hasProxy, proxyDispatcher, proxySettings, type ProxyEnv } from './dispatcher.js';
import { plainRequest } from './plain-http.js';
import type { Exchange } from './wire.js';

/** What the choice depends on. */
export interface ExchangeSettings {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Where the proxy variables come from. */
  env: ProxyEnv;
  /** The caller's own undici dispatcher, used for every request when given. */
  dispatcher?: Dispatcher | undefined;
}

/**
 * Which wire a client with these settings sends through:
 *  - Node's own HTTP client (plain-http.ts) when no proxy applies and no dispatcher is given: what a
 *    command usually does. Loading it costs a run about 5 ms;
 *  - undici (undici-http.ts: its public entry point, with its EnvHttpProxyAgent made by dispatcher.ts) when
 *    HTTP_PROXY or HTTPS_PROXY is set, or with the undici dispatcher a caller hands the client. Loading
 *    undici's index costs a run 60 to 70 ms and about 15 MB (it loads all of undici and Node's HTTP/2
 *    client), so only a run that needs it pays for it.
 */
export function wireFor(settings: Pick<ExchangeSettings, 'env' | 'dispatcher'>): 'node' | 'undici' {
  return settings.dispatcher === undefined && !hasProxy(proxySettings(settings.env)) ? 'node' : 'undici';
}

/**
 * The exchange for a client with these settings. Either way the time-outs are the same (connect; the wait
 * for the headers and each gap in the body), the body streams to the caller, who reads it to the end or
 * destroys it, and the HTTP code loads with the first request, so a command that sends none loads none.
 */
export function exchangeFor(settings: ExchangeSettings): Exchange {
  const { connectTimeoutMs, responseTimeoutMs, env, dispatcher } = settings;
  if (wireFor(settings) === 'node') {
    const bounds = { connectTimeoutMs, responseTimeoutMs };
    // async: a signal aborted before the call is a rejection, as from the wire undici is.
    return async (url, options) => plainRequest(url, options, bounds);
  }
  const pool = () =>
    dispatcher === undefined
      ? proxyDispatcher(connectTimeoutMs, responseTimeoutMs, proxySettings(env))
      : Promise.resolve(dispatcher);
  return async (url, options) => {
    const { keepWasmBaseline, request } = await import('./undici-http.js');
    keepWasmBaseline();
    const res = await request(url, {
      ...options,
      dispatcher: await pool(),
      // Per request as well as on the dispatcher: a caller's own dispatcher (or undici's proxy client,
      // which does not pass them on) still gets our time-outs.
      headersTimeout: responseTimeoutMs,
      bodyTimeout: responseTimeoutMs,
    });
    return { statusCode: res.statusCode, headers: res.headers, body: res.body };
  };
}
