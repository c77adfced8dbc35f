// Requests through Node's own HTTP client (node:http, node:https) when no proxy applies (see exchange.ts).
import type * as NodeHttp from 'node:http';
import type { Agent, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { markBeforeConnect, type Answer, type ExchangeOptions, type TimeoutFigures } from './response.js';

/**
 * node:https (with tls and crypto) for an https address only. Not imported: the ES facade of node:http reads
 * every export, whose WebSocket loads Node's own copy of undici (about 20 ms and 10 MB).
 */
function client(protocol: string): typeof NodeHttp {
  return process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http') as typeof NodeHttp;
}

const pools = new Map<string, Agent>();

/** One keep-alive pool per scheme, for the whole process. */
function poolFor(protocol: string): Agent {
  const pool = pools.get(protocol) ?? new (client(protocol).Agent)({ keepAlive: true });
  pools.set(protocol, pool);
  return pool;
}

function coded(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * One request, under undici's Agent's bounds: a connect time-out (DNS, TCP, TLS) on a new connection, a
 * response time-out on the wait for the headers and each gap in the body, and the caller's signal. Its
 * time-outs carry codes of their own that errorFromNetwork (response.ts) maps beside Node's.
 */
export function plainRequest(url: URL, o: ExchangeOptions, bounds: TimeoutFigures): Promise<Answer> {
  const secure = url.protocol === 'https:';
  const agent = poolFor(url.protocol);
  const { request } = client(url.protocol);
  o.signal?.throwIfAborted();
  return new Promise<Answer>((resolve, reject) => {
    let answer: IncomingMessage | undefined;
    let connectTimer: NodeJS.Timeout | undefined;
    // The request is written only once its socket connected (and, for https, its handshake ended).
    let connected = false;
    const headers: Record<string, string | number> = { ...o.headers };
    if (o.body !== undefined) headers['content-length'] = Buffer.byteLength(o.body);
    // Idle time-out on the socket once it is connected: the wait for the headers, then each gap.
    const req = request(url, { method: o.method, headers, agent, timeout: bounds.responseTimeoutMs });
    const fail = (err: Error) => {
      clearTimeout(connectTimer);
      if (answer !== undefined && !answer.complete) answer.destroy(err);
      req.destroy(err);
    };
    const onAbort = () => {
      const reason: unknown = o.signal?.reason;
      fail(reason instanceof Error ? reason : new DOMException('request aborted', 'AbortError'));
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(connectTimer);
      o.signal?.removeEventListener('abort', onAbort);
    };
    req.on('socket', (socket: Socket) => {
      // A kept-alive socket is connected already; a new one gets the connect time-out.
      if (!socket.connecting) {
        connected = true;
        return;
      }
      connectTimer = setTimeout(
        () =>
          fail(coded('CONNECT_TIMEOUT', `no connection within ${bounds.connectTimeoutMs} ms (${url.host})`)),
        bounds.connectTimeoutMs,
      );
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        connected = true;
        clearTimeout(connectTimer);
      });
    });
    req.on('timeout', () =>
      fail(
        answer === undefined
          ? coded('HEADERS_TIMEOUT', `no headers within ${bounds.responseTimeoutMs} ms`)
          : coded('BODY_TIMEOUT', `the body stalled for ${bounds.responseTimeoutMs} ms`),
      ),
    );
    req.on('error', (err) => {
      done();
      // Nothing of the request was written (refused, reset or a handshake failed while connecting).
      if (!connected) markBeforeConnect(err);
      if (answer === undefined) reject(err);
      else if (!answer.complete) answer.destroy(err);
    });
    req.on('close', done);
    req.on('response', (res) => {
      answer = res;
      // The reader of the body sees its errors through the iterator; none may go unheard.
      res.on('error', () => undefined);
      clearTimeout(connectTimer);
      resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    req.end(o.body);
  });
}
