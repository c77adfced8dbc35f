// Pure: ties on every timestamp keep the server's order when lists are merged, turn state is decided in
// one place whatever the order of the lines before a final, and what tail's backlog shows (-n, --since).
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/api/types.js';
import { mergeOldestFirst } from '../../src/core/conversation/merge.js';
import { isFinalReply, latestTurn, runningThread } from '../../src/core/conversation/turn-state.js';
import { backlogEntries } from '../../src/core/sessions/follow-conversation.js';
import { parseSince } from '../../src/cli/commands/tail/since.js';

const AT = '2025-06-01T09:00:00.000Z';
/** Ids sort the other way round from storage, so a tie broken by id shows. */
let n = 100;
function msg(over: Partial<Message>): Message {
  n -= 1;
  return {
    id: `m${n}`,
    chat_id: 's',
    chat_thread_id: 't1',
    task_id: 'k',
    role: 'assistant',
    type: 'message',
    message: `text ${n}`,
    ts: 1_748_768_400,
    created_at: AT,
    updated_at: AT,
    ...over,
  };
}

describe('merging lists whose messages tie on created_at', () => {
  const user = msg({ role: 'user', ts: null, message: 'hello' });
  const drip1 = msg({ message: 'drip 1' });
  const drip2 = msg({ message: 'drip 2' });
  const final = msg({ type: 'final_message', message: 'the final' });

  it('one list keeps the order the server gave it', () => {
    expect(mergeOldestFirst([user, drip1, drip2, final])).toEqual([user, drip1, drip2, final]);
  });

  it('two lists: the user’s message of a thread before its replies, the server’s order otherwise', () => {
    expect(mergeOldestFirst([drip1, drip2, final], [user])).toEqual([user, drip1, drip2, final]);
    expect(mergeOldestFirst([user], [drip1, drip2, final])).toEqual([user, drip1, drip2, final]);
    // Another thread's prompt is not moved: only the server's order tells those apart.
    const other = msg({ role: 'user', ts: null, chat_thread_id: 't2' });
    expect(mergeOldestFirst([drip1, final], [other])).toEqual([drip1, final, other]);
  });

  it('sorts by created_at first, each message once', () => {
    const later = msg({ created_at: '2025-06-01T09:00:01.000Z' });
    expect(mergeOldestFirst([later, drip1], [drip1, user])).toEqual([user, drip1, later]);
  });
});

describe('turn state, decided once', () => {
  const user = msg({ role: 'user', ts: null });
  const final = msg({ type: 'final_message' });
  const reply = msg({});
  const notice = msg({ chat_thread_id: null, type: 'final_message' });

  it('the latest turn has ended once its final is among the messages, wherever it stands', () => {
    expect(latestTurn([user, final, reply])).toMatchObject({ thread: 't1', state: 'finished', start: user });
    expect(latestTurn([final, reply, user])?.state).toBe('finished');
    expect(latestTurn([user, reply])?.state).toBe('working');
    const next = msg({ role: 'user', ts: null, chat_thread_id: 't2' });
    expect(latestTurn([user, final, next])).toMatchObject({ thread: 't2', state: 'working', start: next });
    // Without a prompt among them, the thread of the last message of a thread.
    expect(latestTurn([reply, notice])).toMatchObject({ thread: 't1', state: 'working', start: reply });
    expect(latestTurn([notice])).toBeUndefined();
  });

  it('a notice is never a final reply; a running thread is the latest without one', () => {
    expect(isFinalReply(notice)).toBe(false);
    expect(isFinalReply(final)).toBe(true);
    expect(runningThread('t1', [user, reply])).toBe('t1');
    expect(runningThread('t1', [user, final])).toBeUndefined();
    expect(runningThread(undefined, [user])).toBeUndefined();
  });
});

describe('what tail’s backlog shows', () => {
  const at = (min: number) => new Date(Date.parse(AT) + min * 60_000).toISOString();
  const read = [
    msg({ role: 'user', ts: null, created_at: at(0), message: 'q1' }),
    msg({ created_at: at(1), message: 'a' }),
    msg({ type: 'final_message', created_at: at(2), message: 'b' }),
    msg({ role: 'user', ts: null, chat_thread_id: 't2', created_at: at(3), message: 'q2' }),
    msg({ chat_thread_id: 't2', created_at: at(4), message: 'c' }),
  ];
  const shown = (q: Parameters<typeof backlogEntries>[1]) =>
    backlogEntries(read, q).map((e) => e.message.message);
  const types = ['message' as const, 'final_message' as const];

  it('-n counts the agent’s entries alone; prompts only where asked, among them', () => {
    expect(shown({ types, lines: 2, prompts: false })).toEqual(['b', 'c']);
    expect(shown({ types, lines: 2, prompts: true })).toEqual(['b', 'q2', 'c']);
    expect(shown({ types, lines: 0, prompts: true })).toEqual([]);
    expect(shown({ types, lines: 10, prompts: false })).toEqual(['a', 'b', 'c']);
  });

  it('--since by created_at, with -n as well when given', () => {
    expect(shown({ types, sinceMs: Date.parse(at(2)), prompts: false })).toEqual(['b', 'c']);
    expect(shown({ types, sinceMs: Date.parse(at(2)), lines: 1, prompts: false })).toEqual(['c']);
    expect(shown({ types, sinceMs: Date.parse(at(5)), prompts: true })).toEqual([]);
  });

  it('--since values: a duration back from now, or an ISO 8601 time', () => {
    const now = Date.parse(AT);
    expect(parseSince('10m', now)).toBe(now - 600_000);
    expect(parseSince('2h', now)).toBe(now - 7_200_000);
    expect(parseSince('2025-06-01T08:00:00Z', now)).toBe(now - 3_600_000);
    expect(parseSince('2025-06-01T10:00:00+02:00', now)).toBe(now - 3_600_000);
    expect(parseSince('2025-06-01', now)).toBe(now - 9 * 3_600_000);
    for (const bad of ['yesterday', '10x', '', '2025-13-45', '0'])
      expect(parseSince(bad, now)).toBeUndefined();
  });
});
