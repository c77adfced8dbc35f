// The pure checks behind "believe an answer only as far as it proves itself": ids, belonging, paging,
// nesting and sizes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  asArtifact,
  asMessage,
  asMessagePage,
  asSentMessage,
  asSession,
  MAX_OPAQUE_ID,
} from '../../src/core/api/schemas/index.js';
import { foreignTo } from '../../src/core/api/belongs.js';
import { HttpError } from '../../src/core/api/errors.js';
import { PageGuard } from '../../src/core/api/paging.js';
import type { Message, MessagePage } from '../../src/core/api/types.js';
import { jsonDepthExceeds } from '../../src/util/json.js';
import { parseSize } from '../../src/util/size.js';

const S = randomUUID();
const T = randomUUID();

function message(over: Partial<Message> = {}): Message {
  return {
    id: randomUUID(),
    chat_id: S,
    chat_thread_id: T,
    task_id: randomUUID(),
    role: 'assistant',
    type: 'message',
    message: 'hi',
    ts: 1,
    created_at: '2026-11-25T00:00:00.000Z',
    updated_at: '2026-11-25T00:00:00.000Z',
    ...over,
  };
}

function thrown(f: () => unknown): HttpError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error('no error');
}

describe('session, thread and artifact ids are UUIDs before they are printed, stored or put in a URL', () => {
  it('a session id of ../../ and an OSC title sequence is refused, named and escaped', () => {
    const err = thrown(() => asSession({ id: '../../\u001b]0;pwned\u0007', thread_id: T }));
    expect(err.kind).toBe('unexpected');
    expect(err.message).toBe(
      `unexpected answer: the session's id is not a UUID: "../../\\u001b]0;pwned\\u0007"`,
    );
    // eslint-disable-next-line no-control-regex -- a control character is exactly what must not be there
    expect(err.message).not.toMatch(/[\u0000-\u001f]/);
  });

  it("a thread id carrying OSC 52 is refused, in a session's thread_id and a message's chat_thread_id", () => {
    const osc52 = '\u001b]52;c;cHduZWQ=\u0007';
    expect(thrown(() => asSession({ id: S, thread_id: osc52 })).message).toContain("session's thread_id");
    expect(thrown(() => asSentMessage({ id: randomUUID(), chat_thread_id: osc52 }, S)).message).toContain(
      "message's chat_thread_id",
    );
  });

  it("a listed message's chat_id and chat_thread_id must be UUIDs; chat_thread_id may be null (a notice)", () => {
    expect(thrown(() => asMessage(message({ chat_id: 'not-a-uuid' }))).message).toContain(
      `the message's chat_id is not a UUID: "not-a-uuid"`,
    );
    expect(thrown(() => asMessage(message({ chat_thread_id: '../../x' }))).message).toContain(
      `the message's chat_thread_id is not a UUID: "../../x"`,
    );
    expect(asMessage(message({ chat_thread_id: null })).chat_thread_id).toBeNull();
    expect(() =>
      asMessagePage({ items: [message({ chat_id: '1' })], meta: { total: 1, total_pages: 1 } }, S),
    ).toThrow(/chat_id is not a UUID/);
  });
  it('plan_artifact_ids and artifact ids must be UUIDs, and the ones asked for', () => {
    expect(thrown(() => asSession({ id: S, plan_artifact_ids: ['../etc/passwd'] })).message).toContain(
      'plan_artifact_ids',
    );
    const A = randomUUID();
    expect(thrown(() => asArtifact({ id: '../etc/passwd', url: 'https://x' }, A)).message).toContain(
      "artifact's id",
    );
    expect(thrown(() => asArtifact({ id: randomUUID(), url: 'https://x' }, A)).message).toContain(
      `asked for artifact ${A}`,
    );
  });

  it('Get session must answer with the session asked for; a follow-up with its own session', () => {
    expect(thrown(() => asSession({ id: randomUUID() }, S)).message).toContain(`asked for session ${S}`);
    expect(asSession({ id: S.toUpperCase() }, S).id).toBe(S.toUpperCase());
    expect(
      thrown(() => asSentMessage({ id: randomUUID(), chat_id: randomUUID(), chat_thread_id: T }, S)).message,
    ).toContain(`a follow-up to session ${S}`);
  });
});

describe('message and task ids are opaque: only compared, so any non-empty string up to 200 characters', () => {
  it("takes the ids of Blocks' CI mock (m1, task-1), and one of exactly 200 characters", () => {
    expect(asMessage(message({ id: 'm1', task_id: 'task-1' })).id).toBe('m1');
    const long = 'x'.repeat(MAX_OPAQUE_ID);
    expect(MAX_OPAQUE_ID).toBe(200);
    expect(asMessage(message({ id: long, task_id: long })).id).toBe(long);
    expect(asSentMessage({ id: 'm0', chat_id: S, chat_thread_id: T, task_id: 'task-1' }, S).id).toBe('m0');
  });

  it('refuses an id of 201 characters, an empty one, a missing one and one that is not a string', () => {
    const refused = (id: unknown) => thrown(() => asMessage({ ...message(), id })).message;
    expect(refused('x'.repeat(MAX_OPAQUE_ID + 1))).toMatch(
      /^unexpected answer: the message's id is not an id \(a non-empty string of at most 200 characters\): "x{78}…$/,
    );
    expect(refused('')).toContain(`the message's id is not an id`);
    expect(refused(undefined)).toContain(
      `the message's id is not an id (a non-empty string of at most 200 characters): missing`,
    );
    expect(refused(42)).toContain(
      `the message's id is not an id (a non-empty string of at most 200 characters): 42`,
    );
    expect(refused(['m1'])).toContain(`the message's id is not an id`);
    expect(refused(null)).toContain(`the message's id is not an id`);
    // The same rule for a task id, which may also be left out (as the mock's listed messages do).
    expect(thrown(() => asMessage(message({ task_id: '' }))).message).toContain(
      "message's task_id is not an id",
    );
    expect(thrown(() => asMessage({ ...message(), task_id: 7 })).message).toContain("message's task_id");
    expect(thrown(() => asMessage(message({ task_id: 'k'.repeat(201) }))).message).toContain('task_id');
    const { task_id: _left, ...without } = message();
    expect(asMessage(without).task_id).toBeUndefined();
  });

  it('an id with an escape sequence is taken, but named escaped when an answer is refused for it', () => {
    expect(asMessage(message({ id: 'x\u001b[2J' })).id).toBe('x\u001b[2J');
    const err = thrown(() => asMessage({ ...message(), id: `\u001b]0;pwned\u0007${'a'.repeat(200)}` }));
    expect(err.message).toContain(`"\\u001b]0;pwned\\u0007aaa`);
    // eslint-disable-next-line no-control-regex -- a control character is exactly what must not be there
    expect(err.message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('session and thread ids stay UUIDs: they go into URLs and references', () => {
    expect(thrown(() => asSession({ id: 'm1' })).message).toContain(`the session's id is not a UUID: "m1"`);
    expect(thrown(() => asSession({ id: S, thread_id: 't1' })).message).toContain("session's thread_id");
    expect(thrown(() => asSentMessage({ id: 'm0', chat_thread_id: 't1' }, S)).message).toContain(
      `the message's chat_thread_id is not a UUID: "t1"`,
    );
    expect(thrown(() => asSentMessage({ id: 'm0', chat_id: 's1', chat_thread_id: T }, S)).message).toContain(
      `the message's chat_id is not a UUID: "s1"`,
    );
  });
});

describe('a message belongs to what was asked for', () => {
  it("one without chat_id is the list's own: kept, and given the session asked for", () => {
    const { chat_id: _left, ...bare } = message({ id: 'm1', type: 'final_message' });
    expect(foreignTo({ sessionId: S }, bare)).toBeUndefined();
    expect(foreignTo({ sessionId: S, threadId: T }, bare)).toBeUndefined();
    const page = asMessagePage({ items: [bare], meta: { total: 1, total_pages: 1 } }, S);
    expect(page.items[0]?.chat_id).toBe(S);
    // One that names another session keeps its own (so that belongs.ts drops it).
    const other = randomUUID();
    const mixed = asMessagePage(
      { items: [message({ chat_id: other })], meta: { total: 1, total_pages: 1 } },
      S,
    );
    expect(mixed.items[0]?.chat_id).toBe(other);
    expect(foreignTo({ sessionId: S }, mixed.items[0]!)).toBe('session');
  });

  it("one without chat_thread_id on a thread's list is the thread's", () => {
    const { chat_thread_id: _left, ...bare } = message();
    expect(foreignTo({ sessionId: S, threadId: T }, bare as Message)).toBeUndefined();
    expect(foreignTo({ sessionId: randomUUID(), threadId: T }, bare as Message)).toBe('session');
  });

  it('another session, another thread, a notice on a thread', () => {
    expect(foreignTo({ sessionId: S }, message())).toBeUndefined();
    expect(foreignTo({ sessionId: S, threadId: T }, message())).toBeUndefined();
    expect(foreignTo({ sessionId: S.toUpperCase() }, message())).toBeUndefined();
    expect(foreignTo({ sessionId: randomUUID() }, message())).toBe('session');
    expect(foreignTo({ sessionId: S, threadId: randomUUID() }, message())).toBe('thread');
    expect(foreignTo({ sessionId: S, threadId: T }, message({ chat_thread_id: null }))).toBe('notice');
    expect(foreignTo({ sessionId: S }, message({ chat_thread_id: null }))).toBeUndefined();
  });
});

function page(items: number, total: number, totalPages: number): MessagePage {
  return {
    items: Array.from({ length: items }, () => message()),
    meta: { total, page: 1, limit: 100, total_pages: totalPages },
  };
}

describe('paging that makes no progress stops with an error', () => {
  it('a page that adds nothing new', () => {
    const g = new PageGuard('the list');
    g.check(1, page(100, 1e8, 1e6), 100);
    g.allow(2);
    expect(() => g.check(2, page(100, 1e8, 1e6), 0)).toThrow(/page 2 repeated messages already read/);
  });

  it('more pages than the first total can fill (one page of slack)', () => {
    const g = new PageGuard('the list');
    g.check(1, page(100, 250, 1e6), 100);
    g.allow(3);
    g.allow(4);
    expect(() => g.allow(5)).toThrow(/more pages than its total/);
  });

  it('counts pages by what the server sent, not by the limit it claims', () => {
    const g = new PageGuard('the list');
    g.check(1, page(50, 250, 5), 50);
    g.allow(6);
    expect(() => g.allow(7)).toThrow(HttpError);
  });

  it('an empty last page is fine', () => {
    const g = new PageGuard('the list');
    g.check(1, page(100, 100, 2), 100);
    g.allow(2);
    expect(() => g.check(2, page(0, 100, 2), 0)).not.toThrow();
  });
});

describe('nesting and sizes', () => {
  it('jsonDepthExceeds counts brackets outside strings', () => {
    expect(jsonDepthExceeds('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(jsonDepthExceeds('"[[[[[[[[[["', 1)).toBe(false);
    expect(jsonDepthExceeds('["\\"[[[[[["]', 1)).toBe(false);
    expect(jsonDepthExceeds('['.repeat(100_000), 100)).toBe(true);
  });

  it('parseSize reads binary and decimal units', () => {
    expect(parseSize('32MiB')).toBe(32 * 1024 * 1024);
    expect(parseSize('1 GiB')).toBe(1024 ** 3);
    expect(parseSize('20MB')).toBe(20_000_000);
    expect(parseSize('4096')).toBe(4096);
    expect(parseSize('lots')).toBeUndefined();
    expect(parseSize('0')).toBeUndefined();
    expect(parseSize('3 parsecs')).toBeUndefined();
  });
});
