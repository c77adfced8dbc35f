// The wire records' schemas (src/core/api/schemas/): both services' shapes taken, by the client's check and by
// the contract the emulator serves to; the values that would reach a URL, a file or a terminal refused; an
// answer taken is the answer itself (fields the service adds kept as they come, in their order).
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  ARTIFACT,
  asArtifact,
  asMessage,
  asMessagePage,
  asSentMessage,
  asSession,
  ERROR_BODY,
  MESSAGE,
  MESSAGE_PAGE,
  SESSION,
} from '../../src/core/api/schemas/index.js';

const S = '6f1c2a0e-8b7d-4c3e-9a51-0d2e4f6a8b9c';
const T = '8b1c2a0e-8b7d-4c3e-9a51-0d2e4f6a8b9c';
const A = '9c1c2a0e-8b7d-4c3e-9a51-0d2e4f6a8b9c';
const link = (href: string) => ({ href });
const links = { self: link('x'), messages: link('y'), thread: link('z'), final_message: link('f') };

/** The document's Session: pull requests as strings, nothing the live service adds. */
const specSession = {
  id: S,
  title: 'Fix the flaky test',
  pull_requests: ['https://github.com/o/r/pull/1'],
  source_url: null,
  is_archived: false,
  is_private: false,
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
  thread_id: T,
  session_html_url: `https://app.invalid/app/sessions/${S}`,
  _links: links,
};
/** The live service's: `{url, status}` pull requests, its extras, and a field neither document names. */
const liveSession = {
  ...specSession,
  pull_requests: [{ url: 'https://github.com/o/r/pull/1', status: 'open' }],
  thread_id: null,
  _links: { ...links, thread: null, final_message: null },
  plan_artifact_ids: [A],
  session_group_id: null,
  agent_name: 'claude',
};
const specMessage = {
  id: A,
  chat_id: S,
  chat_thread_id: T,
  task_id: A,
  role: 'assistant',
  type: 'final_message',
  message: 'done',
  ts: null,
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
};
/** A sandbox notice of the live service: fractional ts, outside any thread. */
const liveNotice = { ...specMessage, type: 'message', chat_thread_id: null, ts: 1764028800.123 };
/** Blocks' CI mock: counted ids, a final without chat_id or task_id. */
const { chat_id: _c, task_id: _t, ...mockFinal } = { ...specMessage, id: 'm3' };

describe('both services answer records the schemas take', () => {
  it("the spec's and the live service's Session, by the client and by the contract", () => {
    for (const s of [specSession, liveSession]) {
      expect(asSession(s, S)).toBe(s);
      expect(v.is(SESSION.contract, s)).toBe(true);
    }
  });

  it("the spec's message, the live service's notice and the CI mock's bare final", () => {
    for (const m of [specMessage, liveNotice, mockFinal]) expect(asMessage(m)).toBe(m);
    expect(v.is(MESSAGE.contract, specMessage)).toBe(true);
    expect(v.is(MESSAGE.contract, liveNotice)).toBe(true);
    const page = {
      items: [specMessage, liveNotice, { ...mockFinal }],
      meta: { total: 3, page: 1, limit: 50, total_pages: 1 },
    };
    expect(v.is(MESSAGE_PAGE.contract, page)).toBe(true);
    expect(asMessagePage(page, S).items[2]!.chat_id).toBe(S);
  });

  it('an answer taken is the answer: fields the service adds kept, in their order', () => {
    const answer = JSON.parse(JSON.stringify(liveSession)) as Record<string, unknown>;
    const text = JSON.stringify(answer);
    expect(JSON.stringify(asSession(answer))).toBe(text);
    expect(asSession(answer).agent_name).toBe('claude');
  });

  it('an artifact and an error body as the emulator serves them', () => {
    const artifact = {
      id: A,
      url: 'https://files.invalid/x?X-Amz-Signature=1',
      file_name: 'plan.md',
      kind: 'plan',
      plan_id: T,
      created_at: '2026-11-25T00:00:00.000Z',
    };
    expect(asArtifact(artifact, A)).toBe(artifact);
    expect(v.is(ARTIFACT.contract, artifact)).toBe(true);
    expect(v.is(ERROR_BODY.contract, { error: 'Session not found', code: 'NOT_FOUND' })).toBe(true);
    expect(v.is(ERROR_BODY.contract, { error: 'x', code: 'not a code' })).toBe(false);
  });
});

describe('the client is lenient where a value is opaque, the contract is not', () => {
  it("a title of null is taken and shown as none; the document's contract refuses it", () => {
    const untitled = { ...specSession, title: null };
    expect(asSession(untitled).id).toBe(S);
    expect(v.is(SESSION.contract, untitled)).toBe(false);
    expect(v.is(SESSION.contract, { ...specSession, is_private: 'yes' })).toBe(false);
  });
});

describe('the values that reach a URL, a file or a terminal are refused', () => {
  const refused = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('taken');
  };

  it('a session id of a path, in an answer and in an artifact list', () => {
    expect(refused(() => asSession({ ...liveSession, id: '../../etc' }))).toBe(
      `unexpected answer: the session's id is not a UUID: "../../etc"`,
    );
    expect(refused(() => asSession({ ...liveSession, plan_artifact_ids: [A, '../x'] }))).toBe(
      `unexpected answer: the session's plan_artifact_ids is not a UUID: "../x"`,
    );
    expect(refused(() => asSession({ ...liveSession, plan_artifact_ids: 'x' }))).toBe(
      'unexpected answer: a session without a list in plan_artifact_ids',
    );
    expect(refused(() => asArtifact({ id: A }, A))).toBe(
      'unexpected answer: an artifact without a download url',
    );
  });

  it('an id over 200 characters, and a record that is a list', () => {
    expect(refused(() => asMessage({ ...specMessage, task_id: 't'.repeat(201) }))).toMatch(
      /^unexpected answer: the message's task_id is not an id \(a non-empty string of at most 200 characters\): "t{78}…$/,
    );
    expect(refused(() => asSession([S]))).toBe('unexpected answer: a session without an id');
    expect(refused(() => asMessagePage({ items: [[]], meta: {} }, S))).toBe(
      'unexpected answer: a message without an id',
    );
    expect(refused(() => asMessagePage({ items: [], meta: { total: '1', total_pages: 1 } }, S))).toBe(
      'unexpected answer: a message list without numeric meta.total and meta.total_pages',
    );
    expect(refused(() => asSentMessage({ id: 'm1', chat_thread_id: T, message: 7 }, S))).toBe(
      'unexpected answer: a message without text in message',
    );
  });
});
