// A record's schema: each field once, with what the contract says it is (the spec's shape, widened where the
// live service differs; the emulator is held to it) and what the client takes of an answer: a field that
// protects something (an id printed, stored or put in a URL) is checked, one only printed through the
// terminal sanitizer or handed on is taken as it comes. valibot for its start-up cost (bench/README.md).
import * as v from 'valibot';
import { HttpError } from '../errors.js';
import { isObject } from '../../../util/json.js';
import { escapeForLine } from '../../../util/text.js';
import { UUID_PATTERN } from '../../../util/uuid.js';

/** The longest message or task id taken: enough for any real id, bounded so none can swell an answer. */
// A session's, thread's or artifact's id is echoed, stored and put in paths and URLs, so it must be a UUID.
// A message's or task's is only compared and printed through the terminal sanitizer: any bounded non-empty
// string, as test servers in the wild send (`m1`, `task-1`).
export const MAX_OPAQUE_ID = 200;

export const UUID = v.pipe(v.string(), v.regex(UUID_PATTERN));
export const OPAQUE_ID = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_OPAQUE_ID));

/** The value as one harmless, short line: JSON notation for control characters, cut at 80. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value));
  const safe = escapeForLine(text);
  return safe.length > 80 ? `${safe.slice(0, 79)}…` : safe;
}

type Wording = (what: string, key: string) => v.ErrorMessage<v.BaseIssue<unknown>>;

/** "the session's id is not a UUID: "m1"": the field named, the value shown (escaped, cut). */
const isNot =
  (rule: string): Wording =>
  (what, key) =>
  (issue) =>
    `the ${what}'s ${key} is ${rule}: ${issue.input === undefined ? 'missing' : shown(issue.input)}`;
export const NOT_A_UUID = isNot('not a UUID');
export const NOT_AN_ID = isNot(`not an id (a non-empty string of at most ${MAX_OPAQUE_ID} characters)`);

const article = (what: string) => (/^[aeiou]/.test(what) ? 'an' : 'a');
/** "a message list without items": what the record lacks. */
export const without =
  (missing: string): Wording =>
  (what) =>
    `${article(what)} ${what} without ${missing}`;

export interface Field<C extends v.GenericSchema = v.GenericSchema> {
  contract: C;
  reading: (what: string, key: string) => v.GenericSchema;
}

/** A field the client checks: `reading` when it takes more than the contract (null, absent), worded by `wording`. */
export function field<C extends v.GenericSchema>(
  contract: C,
  wording: Wording,
  reading: v.GenericSchema = contract,
): Field<C> {
  return { contract, reading: (what, key) => v.message(reading, wording(what, key)) };
}

/** A field the client takes as it comes: opaque to it, or only printed through the terminal sanitizer. */
export const kept = <C extends v.GenericSchema>(contract: C): Field<C> => ({
  contract,
  reading: () => v.optional(v.unknown()),
});

type Contracts<F extends Record<string, Field>> = { [K in keyof F]: F[K]['contract'] };

/** The contract of the whole (fields the service adds are kept), and the client's reading of it. */
export interface Record_<F extends Record<string, Field>> {
  contract: v.LooseObjectSchema<Contracts<F>, undefined>;
  reading: v.GenericSchema;
}

/** Builds a record named `what` (the refusals' wording) from its fields; `shape`: what a non-object lacks. */
export function record<F extends Record<string, Field>>(what: string, fields: F, shape = 'an id'): Record_<F> {
  const keys = Object.keys(fields);
  const contracts = Object.fromEntries(keys.map((k) => [k, fields[k]!.contract])) as Contracts<F>;
  const readings = Object.fromEntries(keys.map((k) => [k, fields[k]!.reading(what, k)]));
  const lacks = without(shape)(what, '') as string;
  // A field left out is refused as its own reading refuses `undefined` ("…'s id is not a UUID: missing").
  const missing = (issue: v.BaseIssue<unknown>) => {
    const key = issue.path?.[0]?.key;
    const left = typeof key === 'string' ? v.safeParse(readings[key]!, undefined).issues?.[0] : undefined;
    return left?.message ?? lacks;
  };
  return {
    contract: v.looseObject(contracts),
    // An array is an object to valibot, not to an answer's record.
    reading: v.pipe(v.custom(isObject, lacks), v.looseObject(readings, missing)),
  };
}

/** Throws the one-line HttpError of an answer `value` that is not the record; else returns it (unchanged). */
export function checked<T>(r: Record_<Record<string, Field>>, value: unknown): T {
  const result = v.safeParse(r.reading, value, { abortEarly: true });
  if (!result.success) throw unexpected(result.issues[0].message);
  return value as T;
}

export function unexpected(message: string): HttpError {
  return new HttpError({ kind: 'unexpected', status: 200, message: `unexpected answer: ${message}` });
}

/** Mutual assignability: a record's interface (the public type) and its contract's type are one shape. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** A record the emulator serves, held to its contract: a view built wrong is the emulator's bug, thrown. */
export function served<T>(r: Record_<Record<string, Field>>, value: T): T {
  v.parse(r.contract, value);
  return value;
}
