// The one request that leaves the base URL's origin: a presigned download link (an artifact's `url`). It
// carries no key and no header of ours but User-Agent, goes only to https (or loopback, for tests), never
// follows a redirect, and reads at most a cap.
import { HttpError, summariseBody } from './errors.js';
import { isLoopbackHost } from '../../util/loopback.js';
import { errorFromNetwork, readCapped, type Answer, type Exchange, type TimeoutFigures } from './response.js';

/** Largest artifact a download reads. */
const DOWNLOAD_CAP = 100 * 1024 * 1024;

export type Download = { bytes: Buffer; contentType: string | undefined };

/** The address without its query: the signature in it is a credential, never shown. */
function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** Checks a presigned link before anything is sent to it. */
export function checkDownloadUrl(raw: string): URL {
  const refused = (message: string) => new HttpError({ kind: 'unexpected', message });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('the service gave a download link that is not a valid address');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw refused(`refusing to download from ${shownUrl(url)}: only https links are followed`);
  }
  if (url.username !== '' || url.password !== '') {
    throw refused('refusing a download link that carries a user name or password');
  }
  return url;
}

/** One GET of the link: the bytes, or an HttpError of kind 'download' (or a network kind). */
export async function downloadOnce(
  config: TimeoutFigures & { userAgent: string; exchange: Exchange; trace: (line: string) => void },
  url: URL,
  signal: AbortSignal | undefined,
): Promise<Download> {
  const where = shownUrl(url);
  config.trace(`→ GET ${where} (presigned link, no key)`);
  let res: Answer;
  try {
    res = await config.exchange(url, { method: 'GET', headers: { 'user-agent': config.userAgent }, signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw errorFromNetwork(err, url.origin, config);
  }
  const status = res.statusCode;
  let bytes: Buffer;
  try {
    // A byte past the cap tells a file too large.
    bytes = await readCapped(res.body, DOWNLOAD_CAP + 1);
  } catch (err) {
    if (signal?.aborted) throw err;
    const cause = errorFromNetwork(err, url.origin, config);
    throw new HttpError({
      kind: cause.transient ? cause.kind : 'unreadable',
      cause: err,
      message: `the download from ${where} broke off: ${cause.message}`,
    });
  }
  const type = res.headers['content-type'];
  const contentType = Array.isArray(type) ? type[0] : type;
  config.trace(`← ${status}, ${bytes.length} bytes from ${where}`);
  if (status >= 200 && status < 300) {
    if (bytes.length > DOWNLOAD_CAP) {
      throw new HttpError({
        kind: 'download',
        status,
        message: `the download from ${where} is larger than ${DOWNLOAD_CAP / 1048576} MiB`,
      });
    }
    return { bytes, contentType };
  }
  // Storage hosts answer with XML (<Message>Request has expired</Message>) or a short text.
  const text = bytes.toString('utf8');
  const said = /<Message>([^<]*)<\/Message>/i.exec(text)?.[1] ?? summariseBody(text, contentType).summary;
  const expired = /expired/i.test(said);
  const lead =
    status >= 300 && status < 400
      ? `the download link redirected elsewhere (HTTP ${status}); not followed`
      : expired
        ? 'the download link has expired'
        : `the download was refused (HTTP ${status})`;
  throw new HttpError({
    kind: status >= 500 ? 'server' : 'download',
    status,
    message: `${lead}${said && !expired ? `: ${said}` : ''}`,
  });
}
