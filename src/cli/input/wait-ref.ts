// What `agents wait` and `--thread` take: a `<session>` reference (session-ref.ts), or one thread of it as
// `<session>/<thread>` (what `agents send` prints), or an API address of a thread
// (…/sessions/<id>/threads/<thread>…). Pure, so a bad one is a usage error before anything is sent.
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../../core/errors/cli-error.js';
import { isUuid } from '../../util/uuid.js';
import { notASession, parseSessionRef, type SessionRef } from './session-ref.js';

/** A session, and the thread to wait on when one is named (else: the session's latest turn). */
export interface WaitRef {
  session: SessionRef;
  threadId?: string;
  /** The text as given, for messages. */
  text: string;
}

/** Pure: the reference in `input`, or undefined when it is none of the accepted forms. */
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
  let threadId: string | undefined;
  if (session.kind === 'id' && /^https?:/i.test(text)) {
    const segments = new URL(text).pathname.split('/');
    const at = segments.findIndex((s, i) => i > 0 && segments[i - 1] === 'sessions' && isUuid(s));
    const thread = segments[at + 1] === 'threads' ? segments[at + 2] : undefined;
    if (thread !== undefined && isUuid(thread)) threadId = thread.toLowerCase();
  }
  return { session, threadId, text };
}

/** The usage error for text that is no session or thread reference. */
export function notAWaitRef(text: string): UsageError {
  const base = notASession(text);
  return new UsageError(
    base.message.replace('not a session', 'not a session or thread'),
    'give a session id, its address, "last", or <session>/<thread> as `agents send` prints it',
  );
}

/** commander's parser for the variadic `<ref...>` of wait: each checked, all collected. */
export function waitRefArg(text: string, previous: WaitRef[] | undefined): WaitRef[] {
  const ref = parseWaitRef(text);
  if (ref === undefined) throw notAWaitRef(text);
  return [...(previous ?? []), ref];
}

/** A `--thread` value: a thread id, or `<session>/<thread>` (the session part is checked by the command). */
export interface ThreadOption {
  threadId: string;
  sessionId?: string;
}

/** commander's parser for `--thread`. */
export function threadOptionArg(value: string): ThreadOption {
  const text = value.trim();
  if (isUuid(text)) return { threadId: text.toLowerCase() };
  const pair = /^([^/]+)\/([^/]+)$/.exec(text);
  if (pair && isUuid(pair[1] ?? '') && isUuid(pair[2] ?? '')) {
    return { sessionId: pair[1]!.toLowerCase(), threadId: pair[2]!.toLowerCase() };
  }
  throw new InvalidArgumentError('expected a thread id (UUID) or <session>/<thread>.');
}

/**
 * The `<session>` argument with a `--thread <session>/<thread>` applied: a session id must be that
 * session (else a usage error now); `last` must resolve to it (checked when it is resolved); none given
 * means that session.
 */
export function withThreadSession(
  ref: SessionRef | undefined,
  thread: ThreadOption | undefined,
): SessionRef | undefined {
  const wanted = thread?.sessionId;
  if (wanted === undefined) return ref;
  // Left out (the terminal would offer a choice): the thread reference names the session.
  if (ref === undefined) return { kind: 'id', id: wanted };
  if (ref.kind === 'last') return { kind: 'last', mustBe: wanted };
  if (ref.id !== wanted) {
    throw new UsageError(
      `--thread ${wanted}/${thread!.threadId} names another session than ${ref.id}`,
      'give the thread id alone, or the <session>/<thread> that `agents send` printed for this session',
    );
  }
  return ref;
}
