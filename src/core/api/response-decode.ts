// An answer read whole, decoded: an error status becomes its HttpError, a success's body its JSON value.
import { HttpError, errorFromStatus, type BadRequestDefault } from './errors.js';
import { parseRetryAfter } from './backoff.js';
import { summariseBody } from './summary.js';
import { redact } from './redact.js';
import { jsonDepthExceeds } from '../../util/json.js';
import type { ReadResponse } from './response-read.js';

/** Deepest JSON an answer may nest: the API's nest a few levels; a parser's (or a walker's) stack is not ours to spend. */
export const MAX_JSON_DEPTH = 100;

/** The value of a 2xx answer's JSON body; throws the HttpError of any other answer. */
export function decodeResponse(
  config: { origin: string; apiKey: string },
  spec: { badRequest?: BadRequestDefault },
  { status, ok, headers, text }: ReadResponse,
): unknown {
  const contentType = headers['content-type'];
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  if (!ok) {
    throw errorFromStatus(status, text, type, {
      badRequest: spec.badRequest,
      retryAfterS: status === 429 || status === 503 ? parseRetryAfter(headers['retry-after']) : undefined,
      redact: (s) => redact(s, config.apiKey),
    });
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new HttpError({
      kind: 'unexpected',
      status,
      message: `unexpected answer from ${config.origin} (HTTP ${status}): JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const what = text.trim() === '' ? 'an empty body' : summariseBody(text, type).summary || 'not JSON';
    throw new HttpError({
      kind: 'unreadable',
      status,
      message: `unreadable answer from ${config.origin} (HTTP ${status}): ${redact(what, config.apiKey)}`,
    });
  }
}
