// The error body of a refused request, `{"error": text, "code": CODE}` (the spec; the live service's 422 and
// Blocks' CI mock send `error` alone): its type, its contract (what the emulator sends) and its code's rule,
// which the client's summary of an error body reads by (src/api/summary.ts).
import * as v from 'valibot';
import { record, kept, type Same } from './fields.js';

/** The service's error body. */
export interface ErrorBody {
  /** A sentence for a person. */
  error: string;
  /** `VALIDATION`, `BAD_REQUEST`, `NOT_FOUND`, …: what a client branches on. */
  code?: string;
  [extra: string]: unknown;
}

/** A code a client may branch on: a short word, never text to show. */
export const ERROR_CODE = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,40}$/));

export const ERROR_BODY = record('error body', {
  error: kept(v.pipe(v.string(), v.minLength(1))),
  code: kept(v.optional(ERROR_CODE)),
});

const errorBodyIsItsContract: Same<ErrorBody, v.InferOutput<typeof ERROR_BODY.contract>> = true;
void errorBodyIsItsContract;
