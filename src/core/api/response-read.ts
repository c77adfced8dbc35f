// An answer's body read to the end, or discarded, on every path.
import { isHttpError, HttpError } from './errors.js';
import type { ExchangeDeadline } from './request-send.js';
import type { Answer } from './wire.js';

/** Error bodies are only summarised, so only their start is read; the rest is discarded with the socket. */
const ERROR_BODY_CAP = 64 * 1024;

export interface ReadResponse {
  status: number;
  /** A 2xx status. */
  ok: boolean;
  headers: Answer['headers'];
  text: string;
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** The body, at most `cap` bytes of it; past the cap, `over` is thrown, or without it the start kept. */
export async function readCapped(body: Answer['body'], cap: number, over?: () => HttpError): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream, which releases the socket.
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > cap) {
      if (over) throw over();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, cap);
}

/** A success's body past `maxResponseBytes` (an answer without end must not take the memory) or that fails is an HttpError; an error's that fails is empty. */
export async function readResponse(
  config: { origin: string; maxResponseBytes: number },
  res: Answer,
  deadline: ExchangeDeadline,
  signal: AbortSignal | undefined,
  trace: (line: string) => void,
): Promise<ReadResponse> {
  const status = res.statusCode;
  const ok = status >= 200 && status < 300;
  const tooLarge = () =>
    new HttpError({
      kind: 'unexpected',
      status,
      message: `the answer from ${config.origin} (HTTP ${status}) is larger than ${sizeText(config.maxResponseBytes)}; stopped reading it (AGENTS_MAX_RESPONSE raises the limit)`,
    });
  try {
    const declared = Number(res.headers['content-length']);
    if (ok && declared > config.maxResponseBytes) throw tooLarge();
    const cap = ok ? config.maxResponseBytes : ERROR_BODY_CAP;
    const bytes = await readCapped(res.body, cap, ok ? tooLarge : undefined);
    return { status, ok, headers: res.headers, text: bytes.toString('utf8') };
  } catch (err) {
    if (signal?.aborted) throw err;
    if (isHttpError(err)) {
      res.body.destroy();
      trace(`← ${status} in ${deadline.elapsed()}: ${err.message}`);
      throw err;
    }
    const cause = deadline.failure(err);
    trace(`← ${status} in ${deadline.elapsed()}, body failed: ${cause.message}`);
    if (!ok) return { status, ok, headers: res.headers, text: '' };
    throw new HttpError({
      kind: cause.kind === 'timeout' ? 'timeout' : 'unreadable',
      status,
      cause: err,
      message: `the answer (HTTP ${status}) could not be read: ${cause.message}`,
    });
  }
}
