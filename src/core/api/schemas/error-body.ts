// The error body of a refused request (the live service's 422 and Blocks' CI mock send `error` alone), as the
// emulator sends it; the client reads one more widely (summariseBody), by the same rule for a code.
import * as v from 'valibot';
import { record, kept } from './fields.js';
import { ERROR_CODE_PATTERN } from '../errors.js';

export const ERROR_BODY = record('error body', {
  // A sentence for a person.
  error: kept(v.pipe(v.string(), v.minLength(1))),
  // `VALIDATION`, `BAD_REQUEST`, …: what a client branches on.
  code: kept(v.optional(v.pipe(v.string(), v.regex(ERROR_CODE_PATTERN)))),
});
