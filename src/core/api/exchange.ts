// How the client puts a request on the wire, chosen once per client: Node's own HTTP client (plain-http.ts),
// or undici (by import()) where a proxy or a caller's dispatcher needs it.
import type { Dispatcher } from 'undici';
import { proxyDispatcher, proxySettings, type ProxyEnv } from './dispatcher.js';
import { plainRequest } from './plain-http.js';
import type { Exchange } from './response.js';
import type { TimeoutFigures } from './network-errors.js';

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
