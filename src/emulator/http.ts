// Replies as data, bounded body reading, writing a reply (whole or sabotaged), listening and closing.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_BODY, served } from '../core/api/schemas/index.js';
import type { Dialect } from './dialect.js';

/** A response before it is written, so a fault can decide how (or whether) it reaches the client. */
export interface Reply {
  status: number;
  headers: HeaderMap;
  body: string;
}

type HeaderMap = Record<string, string>;

export function json(status: number, value: unknown, headers: HeaderMap = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(value),
  };
}

/** The service's error shape: `{"error": text, "code": CODE}`. */
export function apiError(status: number, code: string, error: string, headers?: HeaderMap): Reply {
  return json(status, served(ERROR_BODY, { error, code }), headers);
}

/** A path the API lacks, as a web framework answers it: no `{"error": …}`, so a wrong base URL shows. */
export function noRoute(): Reply {
  return json(404, { detail: 'Not Found' });
}

/** The reply with `code` kept in JSON errors as the dialect says, or taken out: `{"error": …}` alone. */
export function inErrorShape(reply: Reply, codes: Dialect['errorCodes']): Reply {
  if (codes === 'all' || (codes === 'not-422' && reply.status !== 422)) return reply;
  if (reply.status < 400 || !reply.headers['content-type']?.startsWith('application/json')) return reply;
  const { code: _code, ...rest } = JSON.parse(reply.body) as Record<string, unknown>;
  return { ...reply, body: JSON.stringify(rest) };
}

/** A page like the ones nginx-style gateways send: what a client gets for 401/403/502 from the edge. */
export function htmlPage(status: number, reason: string, headers: HeaderMap = {}): Reply {
  const title = `${status} ${reason}`;
  const body =
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
    `<hr><center>gateway</center>\r\n</body>\r\n</html>\r\n`;
  return { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body };
}

export type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

/** Reads at most `max` bytes: a larger Content-Length is refused unread, a chunked body paused past it. */
export function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.pause();
    return Promise.resolve({ kind: 'too-large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (r: BodyResult) => {
      for (const [event, fn] of Object.entries(listeners)) req.off(event, fn);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.pause();
        done({ kind: 'too-large' });
      } else chunks.push(chunk);
    };
    const onEnd = () => done({ kind: 'ok', body: Buffer.concat(chunks) });
    const onClose = () => done({ kind: 'aborted' });
    const listeners = { data: onData, end: onEnd, close: onClose, error: onClose };
    for (const [event, fn] of Object.entries(listeners)) req.on(event, fn);
  });
}

/** Writes a reply whole, or as a fault says: cut in half ('truncate') or not at all ('reset-after-commit'). */
export function writeReply(res: ServerResponse, reply: Reply, fault?: string): void {
  if (res.destroyed || res.headersSent) return;
  if (fault === 'reset-after-commit') {
    res.socket?.destroy();
    return;
  }
  const body = Buffer.from(reply.body, 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
  if (fault === 'truncate') {
    // Headers promise the full length; half arrives, then the connection dies.
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    return;
  }
  res.end(body);
}

/** Listens on `port` (0: a free one) of `host`; resolves with its origin once it does, rejects if it cannot. */
export async function listen(server: Server, port: number, host: string, scheme = 'http'): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${hostPart}:${address.port}`;
}

/** Closes the server and, as a process that exits, every connection (a request in flight with it). */
export function shut(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
