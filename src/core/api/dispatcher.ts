// The proxy settings (lower-case forms first, as curl reads them) and undici's EnvHttpProxyAgent with our
// time-outs. The caller hands the settings over: undici never reads the environment itself.
import type { Dispatcher } from 'undici';
import { HttpError } from './errors.js';

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
      message: `invalid proxy setting: ${err instanceof Error ? err.message : String(err)}`,
      advice: 'check HTTPS_PROXY / HTTP_PROXY: they need a full address such as http://proxy.example:3128',
    });
  }
  shared.set(id, dispatcher);
  return dispatcher;
}
