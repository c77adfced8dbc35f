// A session reference, as every face takes it: a UUID, any http(s) address whose path holds /sessions/<uuid>
// (the dashboard's, an API address), or `last`; for a wait, also one thread of it. Parsing is pure, so a bad
// reference is a usage error before anything loads or is sent; `last` is looked up later (resolve.ts).
import { UsageError } from '../errors/cli-error.js';
import { isUuid } from '../../util/uuid.js';

/** A parsed `<session>` argument. `mustBe`: `last` combined with `--thread <session>/<thread>`, whose
 * session part it must resolve to. */
export type SessionRef = { kind: 'id'; id: string } | { kind: 'last'; mustBe?: string };

/** The session id in an http(s) address (the segment after any `sessions` segment: a workspace may itself be
 * called "sessions"), and the segments after it. */
function fromAddress(text: string): { id: string; rest: string[] } | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const segments = url.pathname.split('/');
  const at = segments.findIndex((s, i) => i > 0 && segments[i - 1] === 'sessions' && isUuid(s));
  return at < 0 ? undefined : { id: segments[at]!.toLowerCase(), rest: segments.slice(at + 1) };
}

export function parseSessionRef(input: string): SessionRef | undefined {
  const text = input.trim();
  if (text === 'last') return { kind: 'last' };
  if (isUuid(text)) return { kind: 'id', id: text.toLowerCase() };
  const address = fromAddress(text);
  return address && { kind: 'id', id: address.id };
}

function notA(what: string, text: string, hint: string): UsageError {
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  return new UsageError(`not a ${what}: ${shown}`, hint);
}

function notASession(text: string): UsageError {
  return notA('session', text, 'give a session id (UUID), its address (…/sessions/<id>), or "last"');
}

/** Parses or throws the usage error (commander's argument parser for `<session>`). */
export function sessionRefArg(text: string): SessionRef {
  const ref = parseSessionRef(text);
  if (ref === undefined) throw notASession(text);
  return ref;
}

/** A session, and the thread to wait on when one is named (else: the session's latest turn). */
export interface WaitRef {
  session: SessionRef;
  threadId?: string;
  /** The text as given, for messages. */
  text: string;
}

export function parseWaitRef(input: string): WaitRef | undefined {
  const text = input.trim();
  const slash = /^([^/]+)\/([^/]+)$/.exec(text);
  if (slash) {
    const [, session = '', thread = ''] = slash;
    if (!isUuid(thread)) return undefined;
    const ref = session === 'last' ? ({ kind: 'last' } as const) : parseSessionRef(session);
    if (ref === undefined || !(ref.kind === 'last' || isUuid(session))) return undefined;
    return { session: ref, threadId: thread.toLowerCase(), text };
  }
  const session = parseSessionRef(text);
  if (session === undefined) return undefined;
  // An API address of a thread: the segment after `threads`, after the session's.
  const [threads, thread] = fromAddress(text)?.rest ?? [];
  const threadId =
    threads === 'threads' && thread !== undefined && isUuid(thread) ? thread.toLowerCase() : undefined;
  return { session, threadId, text };
}

export function notAWaitRef(text: string): UsageError {
  const hint = 'give a session id, its address, "last", or <session>/<thread> as `agents send` prints it';
  return notA('session or thread', text, hint);
}
