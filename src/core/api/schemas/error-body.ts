// The error body of a refused request, `{"error": text, "code": CODE}` (the spec; the live service's 422 and
// Blocks' CI mock send `error` alone): its type and its contract (what the emulator sends). The client reads
// an error body more widely (src/core/api/summary.ts: `message`, a nested `error`), by the same rule for a code.
import * as v from 'valibot';
import { record, kept, type Same } from './fields.js';
import { ERROR_CODE_PATTERN } from '../summary.js';

/** The service's error body. */
export interface ErrorBody {
  /** A sentence for a person. */
  error: string;
  /** `VALIDATION`, `BAD_REQUEST`, `NOT_FOUND`, …: what a client branches on. */
  code?: string;
  [extra: string]: unknown;
}

export const ERROR_BODY = record('error body', {
  error: kept(v.pipe(v.string(), v.minLength(1))),
  code: kept(v.optional(v.pipe(v.string(), v.regex(ERROR_CODE_PATTERN)))),
});

void (true satisfies Same<ErrorBody, v.InferOutput<typeof ERROR_BODY.contract>>);
