// The other origin, serving presigned artifact downloads as the service's storage provider: no key needed,
// one sent is refused (S3 answers a second auth mechanism with 400), an expired link is 403.
import { createServer } from 'node:http';
import { listen, shut } from './http.js';
import type { Store } from './store.js';

/** The download host of one emulator. */
export interface ArtifactHost {
  url: string;
  requests(): { path: string; authorization: boolean }[];
  close(): Promise<void>;
}

const TWO_AUTHS = 'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter';

function xml(status: number, code: string, message: string): [number, Record<string, string>, string] {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  return [status, { 'content-type': 'application/xml' }, body];
}

export async function startArtifactHost(store: Store, host: string): Promise<ArtifactHost> {
  const seen: { path: string; authorization: boolean }[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://artifacts.invalid');
    const authorization = req.headers.authorization !== undefined;
    seen.push({ path: url.pathname, authorization });
    let reply: [number, Record<string, string>, string | Buffer];
    const token = url.pathname.split('/')[1] ?? '';
    const artifact = store.byToken(token);
    const expires = Number(url.searchParams.get('X-Amz-Expires') ?? Number.NaN);
    if (req.method !== 'GET') reply = xml(405, 'MethodNotAllowed', 'The specified method is not allowed');
    else if (authorization) reply = xml(400, 'InvalidArgument', TWO_AUTHS);
    else if (!artifact || !url.searchParams.has('X-Amz-Signature'))
      reply = xml(403, 'AccessDenied', 'Access Denied');
    else if (!(expires * 1000 > Date.now())) reply = xml(403, 'AccessDenied', 'Request has expired');
    else reply = [200, { 'content-type': artifact.mimeType }, artifact.content];
    const [status, headers, body] = reply;
    res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
  return {
    url: await listen(server, 0, host),
    requests: () => seen.map((r) => ({ ...r })),
    close: () => shut(server),
  };
}
