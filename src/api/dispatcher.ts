// The connection pool every client shares by default: undici's EnvHttpProxyAgent, which honours
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY (lower-case forms first, as curl does), with our time-outs.
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { CliError } from '../errors.js';

const shared = new Map<string, Dispatcher>();

/** The proxy settings in force, as undici reads them (NO_PROXY is re-read by undici on every request). */
function proxyEnv(env: NodeJS.ProcessEnv): string {
  return [env.http_proxy ?? env.HTTP_PROXY ?? '', env.https_proxy ?? env.HTTPS_PROXY ?? ''].join('\n');
}

/**
 * One EnvHttpProxyAgent per set of time-outs and proxy variables, for the whole process. Keyed on the proxy
 * variables too because undici reads HTTP(S)_PROXY once, when the agent is made.
 */
export function defaultDispatcher(connectTimeoutMs: number, responseTimeoutMs: number): Dispatcher {
  const id = `${connectTimeoutMs}\n${responseTimeoutMs}\n${proxyEnv(process.env)}`;
  let dispatcher = shared.get(id);
  if (dispatcher === undefined) {
    try {
      dispatcher = new EnvHttpProxyAgent({
        connect: { timeout: connectTimeoutMs },
        headersTimeout: responseTimeoutMs,
        bodyTimeout: responseTimeoutMs,
        // The connection to the proxy itself gets the same connect time-out.
        proxyTls: { timeout: connectTimeoutMs },
        // http:// targets go through the proxy as absolute-form requests, as curl does; plain proxies often
        // refuse CONNECT to ports other than 443. https:// targets are always tunnelled with CONNECT.
        proxyTunnel: false,
      });
    } catch (err) {
      throw new CliError(`invalid proxy setting: ${err instanceof Error ? err.message : String(err)}`, {
        hint: 'check HTTPS_PROXY / HTTP_PROXY: they need a full address such as http://proxy.example:3128',
        cause: err,
      });
    }
    shared.set(id, dispatcher);
  }
  return dispatcher;
}
