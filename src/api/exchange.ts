// How the client puts one request on the wire, chosen once per client:
//  - through Node's own HTTP client (plain-http.ts) when no proxy applies and no dispatcher is given: what a
//    command usually does. Loading it costs a run about 5 ms;
//  - through undici (undici-http.ts: its public entry point, with our Agent or its EnvHttpProxyAgent, made by
//    dispatcher.ts) when HTTP_PROXY or HTTPS_PROXY is set, or when the caller hands the client an undici
//    dispatcher of its own. Loading undici's index costs a run 60 to 70 ms and about 15 MB (it loads all
//    of undici and Node's HTTP/2 client), so only a run that needs it pays for it.
// Either way the time-outs are the same (connect; the wait for the headers and each gap in the body), the
// body streams to the caller, who reads it to the end or destroys it, and the module loads with the first
// request, so a command that sends none loads no HTTP code.
import type { Dispatcher } from 'undici';
import { defaultDispatcher, proxySettings, type ProxyEnv } from './dispatcher.js';
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

/** The exchange for a client with these settings. */
export function exchangeFor(settings: ExchangeSettings): Exchange {
  const { connectTimeoutMs, responseTimeoutMs, env, dispatcher } = settings;
  const proxy = proxySettings(env);
  if (dispatcher === undefined && proxy.httpProxy === undefined && proxy.httpsProxy === undefined) {
    const bounds = { connectTimeoutMs, responseTimeoutMs };
    return async (url, options) => {
      const { plainRequest } = await import('./plain-http.js');
      return plainRequest(url, options, bounds);
    };
  }
  const pool = () =>
    dispatcher === undefined
      ? defaultDispatcher(connectTimeoutMs, responseTimeoutMs, env)
      : Promise.resolve(dispatcher);
  return async (url, options) => {
    const { request } = await import('./undici-http.js');
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
