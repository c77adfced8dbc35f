// commander's parsers for `agents wait`'s references (core/sessions/refs.ts) and `--thread` (a thread id, or
// the `<session>/<thread>` that `agents send` prints): a bad one is a usage error before anything is sent.
import { InvalidArgumentError } from 'commander';
import { notAWaitRef, parseWaitRef, type SessionRef, UsageError, type WaitRef } from '../../core/index.js';
import { isUuid } from '../../util/uuid.js';

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
 * The `<session>` argument with a `--thread <session>/<thread>` applied: a session id must be that session;
 * `last` must resolve to it (checked when it is resolved); none given means it.
 */
export function withThreadSession(
  ref: SessionRef | undefined,
  thread: ThreadOption | undefined,
): SessionRef | undefined {
  const wanted = thread?.sessionId;
  if (wanted === undefined) return ref;
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
