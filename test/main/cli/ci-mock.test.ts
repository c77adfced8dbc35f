// Against a server that answers as Blocks' own CI mock (the emulator's ci-mock dialect: message ids m0, m1,
// …, task ids task-1, …, a final reply without chat_id, _links on another host, one 429 with Retry-After: 1
// on the first poll), the commands a CI job runs succeed: message and task ids are opaque to the client.
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../../src/core/api/types.js';
import { endTurn } from '../../support/emulator.js';
import { fixture, UUID, type Fixture } from '../../support/fixture.js';

const mock = () => fixture({ dialect: 'ci-mock' });
const PROMPT = 'Review the PR';
const REPLY = 'claude finished: "Review the PR". Done.';
const OPAQUE = /^m\d+$/;

/** A session whose first turn has ended, made through the CLI without listing a message (no 429 yet). */
async function finished(f: Fixture): Promise<string> {
  const r = await f.run(['create', '-a', 'claude', PROMPT]);
  expect(r.code, r.stderr).toBe(0);
  const id = r.stdout.trim();
  expect(id).toMatch(UUID);
  endTurn(f.em, id);
  expect(f.em.stats().rejected429).toBe(0);
  return id;
}

/** Every message the mock stored has an id that is no UUID, and its listed final has no chat_id. */
function expectOpaque(f: Fixture, id: string): void {
  const stored = f.em.messages(id);
  expect(stored.map((m) => m.id).every((m) => OPAQUE.test(m))).toBe(true);
  expect(stored.at(-1)).toMatchObject({ type: 'final_message', task_id: 'task-1' });
}

describe("Blocks' CI mock: the commands of a CI job", () => {
  it('create --wait prints the reply and exits 0, the 429 of the first poll ridden out', async () => {
    const f = await mock();
    const r = await f.run(['create', '-a', 'claude', '--wait', PROMPT]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(REPLY);
    expect(r.stderr).not.toMatch(/error|not a UUID|unexpected/);
    expect(f.em.stats().rejected429).toBe(1);
    const id = /on session ([0-9a-f-]{36})/.exec(r.stderr)?.[1] ?? '';
    expectOpaque(f, id);
  });

  it('create --wait --json prints the final message with the CI result, its chat_id the session', async () => {
    const f = await mock();
    const r = await f.run(['create', '-a', 'claude', '--wait', '--json', PROMPT]);
    expect(r.code, r.stderr).toBe(0);
    expect(f.em.stats().rejected429).toBe(1);
    const out = JSON.parse(r.stdout) as Message & Record<string, unknown>;
    expect(out.session_id).toMatch(UUID);
    expectOpaque(f, out.session_id as string);
    const final = f.em.messages(out.session_id as string).at(-1)!;
    expect(out).toMatchObject({
      id: final.id,
      chat_id: out.session_id,
      chat_thread_id: out.thread_id,
      type: 'final_message',
      message: REPLY,
      status: 'completed',
      final_message: REPLY,
      pull_requests: [],
    });
    expect(out.id).toMatch(OPAQUE);
    expect(out.thread_id).toMatch(UUID);
  });

  it('show prints the conversation and exits 0, the 429 ridden out', async () => {
    const f = await mock();
    const id = await finished(f);
    const r = await f.run(['show', id]);
    expect(r.code, r.stderr).toBe(0);
    expect(f.em.stats().rejected429).toBe(1);
    const thread = f.em.messages(id)[0]?.chat_thread_id;
    expect(r.stdout).toContain(`── turn 1 · thread ${thread} ──`);
    expect(r.stdout).toContain(`${PROMPT}\n`);
    expect(r.stdout).toContain(`${REPLY}\n`);
    expect(r.stderr).toBe('');
    expectOpaque(f, id);
  });

  it('show --json gives every message with its opaque id, the final given its session', async () => {
    const f = await mock();
    const id = await finished(f);
    const r = await f.run(['show', id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(f.em.stats().rejected429).toBe(1);
    const doc = JSON.parse(r.stdout) as { session: Session; messages: Message[]; running_thread_id: null };
    expect(doc.session.id).toBe(id);
    expect(doc.running_thread_id).toBeNull();
    const stored = f.em.messages(id).filter((m) => m.type !== 'tool_call');
    expect(doc.messages.map((m) => m.id)).toEqual(stored.map((m) => m.id));
    expect(doc.messages.every((m) => OPAQUE.test(m.id) && m.chat_id === id)).toBe(true);
    expect(doc.messages.at(-1)).toMatchObject({ type: 'final_message', message: REPLY });
  });

  it('wait prints the reply of a session and exits 0, the 429 ridden out', async () => {
    const f = await mock();
    const c = await f.run(['create', '-a', 'claude', PROMPT]);
    expect(c.code, c.stderr).toBe(0);
    const id = c.stdout.trim();
    const r = await f.run(['wait', id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(REPLY);
    expect(r.stderr).not.toMatch(/error|not a UUID|unexpected/);
    expect(f.em.stats().rejected429).toBe(1);
    expectOpaque(f, id);
  });
});
