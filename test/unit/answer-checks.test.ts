// The pure checks behind "believe an answer only as far as it proves itself": ids, belonging, paging,
// nesting and sizes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asArtifact, asMessage, asMessagePage, asSentMessage, asSession } from '../../src/api/answers.js';
import { foreignTo } from '../../src/api/belongs.js';
import { ApiError } from '../../src/api/errors.js';
import { PageGuard } from '../../src/api/paging.js';
import type { Message, MessagePage } from '../../src/api/types.js';
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

function thrown(f: () => unknown): ApiError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('no error');
}

describe('ids are UUIDs before anything is printed, stored or put in a URL', () => {
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

  it("a listed message's id and chat_id must be UUIDs; chat_thread_id may be null (a notice)", () => {
    expect(thrown(() => asMessage(message({ id: 'x\u001b[2J' }))).message).toContain(
      `message's id is not a UUID: "x\\u001b[2J"`,
    );
    expect(thrown(() => asMessage(message({ chat_id: 'not-a-uuid' }))).message).toContain(
      "message's chat_id",
    );
    expect(asMessage(message({ chat_thread_id: null })).chat_thread_id).toBeNull();
    expect(() =>
      asMessagePage({ items: [message({ id: '1' })], meta: { total: 1, total_pages: 1 } }),
    ).toThrow(/not a UUID/);
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

describe('a message belongs to what was asked for', () => {
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
    expect(() => g.allow(7)).toThrow(ApiError);
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
