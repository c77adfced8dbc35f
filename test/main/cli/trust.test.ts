// Believe an answer only as far as it proves itself, end to end against the emulator: every conversation
// reader on each way a server may read a repeated `role`, and the broken answers a server may give
// (another thread's or session's reply, an answer without end, a trickle, paging without end, ids that
// are not ids, JSON nested without end).
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/api/types.js';
import type { RepeatedParams } from '../../../src/emulator/index.js';
import { fixture, until, UUID, type Fixture } from '../../support/fixture.js';
import type { RunHandle } from '../../support/main.js';

/** A finished session of two turns, made through the CLI; returns its id and the two threads. */
async function twoTurns(f: Fixture): Promise<{ id: string; threads: string[] }> {
  const c = await f.run(['create', '-a', 'claude', '--wait', '--json', '[[reply:first%20answer]] first']);
  expect(c.code, c.stderr).toBe(0);
  const id = (JSON.parse(c.stdout) as Message).chat_id;
  const s = await f.run(['send', id, '--wait', '[[reply:second%20answer]] second']);
  expect(s.code, s.stderr).toBe(0);
  const threads = [
    ...new Set(
      f.em
        .messages(id)
        .filter((m) => m.role === 'user')
        .map((m) => m.chat_thread_id!),
    ),
  ];
  return { id, threads };
}

/** What a reader must present: every user message and every reply, in storage order (no tool calls). */
function conversation(f: Fixture, id: string, thread?: string): string[] {
  return f.em
    .messages(id)
    .filter((m) => m.type !== 'tool_call' && (thread === undefined || m.chat_thread_id === thread))
    .map((m) => m.id);
}

const MODES: RepeatedParams[] = ['all', 'reject', 'first', 'last'];

/** The two prompts of twoTurns (as sent, directives and all) and their replies, in order. */
const PROMPTS_AND_REPLIES = [
  '[[reply:first%20answer]] first',
  'first answer',
  '[[reply:second%20answer]] second',
  'second answer',
];

describe.each(MODES)('a server that reads a repeated role as %s', (mode) => {
  const setUp = async () => {
    const f = await fixture({ dialect: 'spec' });
    const s = await twoTurns(f);
    f.em.setRepeatedParams(mode);
    f.em.resetStats();
    return { f, ...s };
  };

  it('show --json lists every prompt and every reply once, in order, at the usual cost plus at most one', async () => {
    const { f, id } = await setUp();
    const r = await f.run(['show', id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { messages: Message[] };
    expect(out.messages.map((m) => m.id)).toEqual(conversation(f, id));
    expect(out.messages.filter((m) => m.role === 'user')).toHaveLength(2);
    expect(out.messages.filter((m) => m.type === 'final_message')).toHaveLength(2);
    // Get session, then one list where the repeated role is honoured; two lists (one of them the
    // answer to the repeated role) where a value was dropped; the refused question and two lists on 422.
    const want = { all: 2, first: 3, last: 3, reject: 4 }[mode];
    expect(f.em.stats().requests).toBe(want);
  });

  it('show on a pipe prints both prompts and both replies, in order', async () => {
    const { f, id } = await setUp();
    const r = await f.run(['show', id]);
    expect(r.code, r.stderr).toBe(0);
    const at = PROMPTS_AND_REPLIES.map((t) => `${r.stdout}\n`.indexOf(`\n${t}\n`));
    expect(
      at.every((i) => i >= 0),
      r.stdout,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('show --thread lists that turn alone, prompt and reply', async () => {
    const { f, id, threads } = await setUp();
    const r = await f.run(['show', id, '--thread', threads[0]!, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { messages: Message[] };
    expect(out.messages.map((m) => m.id)).toEqual(conversation(f, id, threads[0]));
  });

  it('show --all of a session of 1,000 messages lists all of them', async () => {
    const { f, id, threads } = await setUp();
    for (let i = 0; i < 250; i++) {
      f.em.addMessage(id, {
        chat_thread_id: threads[1]!,
        role: 'user',
        type: 'message',
        message: `ask ${i}`,
      });
      for (const type of ['message', 'message', 'final_message'] as const) {
        f.em.addMessage(id, {
          chat_thread_id: threads[1]!,
          role: 'assistant',
          type,
          message: `${type} ${i}`,
        });
      }
    }
    const want = conversation(f, id);
    expect(want.length).toBeGreaterThanOrEqual(1000);
    const r = await f.run(['show', id, '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { messages: Message[] }).messages.map((m) => m.id)).toEqual(want);
  });

  it('tail -n 3 starts with the agent’s last three messages: prompts neither printed nor counted', async () => {
    const { f, id } = await setUp();
    const r = await f.run(['tail', id, '-n', '3', '--until-final', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const got = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as Message).id);
    const prompts = new Set(f.em.messages(id).flatMap((m) => (m.role === 'user' ? [m.id] : [])));
    expect(got).toEqual(
      conversation(f, id)
        .filter((m) => !prompts.has(m))
        .slice(-3),
    );
  });

  it("chat's backlog shows both prompts and both replies", async () => {
    const { f, id } = await setUp();
    const r = await f.run(['chat', id], {
      tty: { stdin: true, stdout: true, stderr: true, columns: 80 },
      onStart: (run: RunHandle) =>
        void until(() => run.stdout.includes('second answer'), 15_000).then(
          () => run.stdin.write('\u0004'),
          () => run.kill('SIGTERM'),
        ),
    });
    expect(r.code, r.stderr.slice(-500)).toBe(0);
    const text = r.stdout;
    const at = PROMPTS_AND_REPLIES.map((t) => text.indexOf(t));
    expect(at.every((i) => i >= 0)).toBe(true);
  });

  it('wait, create --wait and send --wait print their own reply', async () => {
    const { f, id } = await setUp();
    const w = await f.run(['wait', id]);
    expect(w.stdout).toBe('second answer\n');
    const s = await f.run(['send', id, '--wait', '[[reply:third%20answer]] third']);
    expect(s.stdout).toBe('third answer');
    const c = await f.run(['create', '-a', 'claude', '--wait', '[[reply:own]] new']);
    expect(c.stdout).toBe('own');
  });
});

describe('a filter the server ignores never hands over another reply', () => {
  it("send --wait prints its own thread's final, not the first turn's (a warning says what was dropped)", async () => {
    const f = await fixture({ dialect: 'spec' });
    const c = await f.run(['create', '-a', 'claude', '--wait', '--json', '[[reply:first%20turn]] one']);
    const id = (JSON.parse(c.stdout) as Message).chat_id;
    f.em.setMisbehaviour({ ignoreThreadFilter: true });
    const r = await f.run(['send', id, '--wait', '[[think:400]] [[reply:second%20turn]] two']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('second turn');
    expect(r.stderr.match(/^warning: .*another thread.*$/gm)).toHaveLength(1);
  });

  it("create --wait prints its own session's final, not another session's", async () => {
    const f = await fixture({ dialect: 'live' });
    const other = await f.run(['create', '-a', 'claude', '--wait', '[[reply:not%20yours]] other']);
    expect(other.stdout).toBe('not yours');
    // Both filters forgotten: the new thread's list is the whole workspace's.
    f.em.setMisbehaviour({ ignoreSessionFilter: true, ignoreThreadFilter: true });
    const r = await f.run(['create', '-a', 'claude', '--wait', '[[think:400]] [[reply:yours]] mine']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('yours');
    expect(r.stderr.match(/^warning: .*another session.*$/gm)).toHaveLength(1);
  });

  it('show lists no message of another session', async () => {
    const f = await fixture({ dialect: 'spec' });
    await twoTurns(f);
    const { id } = await twoTurns(f);
    f.em.setMisbehaviour({ ignoreSessionFilter: true });
    const r = await f.run(['show', id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { messages: Message[] };
    expect(out.messages.map((m) => m.id)).toEqual(conversation(f, id));
  });
});

describe('an answer is bounded in size, time, depth and pages', () => {
  it('an answer without end: one line, exit 1, nothing printed', async () => {
    const f = await fixture();
    const { id } = await twoTurns(f);
    f.em.setMisbehaviour({ endlessBody: 'session' });
    const r = await f.run(['show', id], { env: { ...f.env, AGENTS_MAX_RESPONSE: '2MiB' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: the answer from http:\/\/127\.0\.0\.1:\d+ \(HTTP 200\) is larger than 2 MiB; stopped reading it \(AGENTS_MAX_RESPONSE raises the limit\)\n(hint: [^\n]+\n)?$/,
    );
  });

  it('an answer that trickles ends show at its --timeout (124)', async () => {
    const f = await fixture();
    const { id } = await twoTurns(f);
    f.em.setMisbehaviour({ trickle: { everyMs: 1000, route: 'session' } });
    const r = await f.run(['show', id, '--timeout', '2s']);
    expect(r.code).toBe(124);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error: timed out after 2s reading session ${id}\\n`));
  });

  it('a poll that trickles is retried inside the wait, which still gets the reply', async () => {
    const f = await fixture();
    f.em.setMisbehaviour({ trickle: { everyMs: 1000, requests: 1, route: 'list' } });
    const r = await f.run(['create', '-a', 'claude', '--wait', '--timeout', '30s', '[[reply:landed]] go'], {
      env: { ...f.env, AGENTS_REQUEST_TIMEOUT: '1s' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('landed');
  });

  it('paging without end stops with an error after a few requests', async () => {
    const f = await fixture();
    const { id } = await twoTurns(f);
    f.em.setMisbehaviour({ endlessPages: true });
    f.em.resetStats();
    const r = await f.run(['show', id, '--all']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: unexpected answer: paging the messages of session [0-9a-f-]{36} made no progress: page 2 repeated messages already read; stopped\n/,
    );
    expect(f.em.stats().requests).toBeLessThanOrEqual(6);
  });

  it('JSON nested without end is one clear line, not a stack overflow', async () => {
    const f = await fixture();
    const { id } = await twoTurns(f);
    f.em.setMisbehaviour({ deepJson: 100_000 });
    const r = await f.run(['show', id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: unexpected answer from [^\n]+: JSON nested deeper than 100 levels\n/);
    expect(r.stderr).not.toContain('call stack');
  });
});

describe('ids from the server are checked before they are printed or stored', () => {
  it('create refuses a session id of ../../ and an OSC title: nothing on stdout, last not written', async () => {
    const f = await fixture();
    f.em.setMisbehaviour({ badIds: 'session' });
    const r = await f.run(['create', '-a', 'claude', 'hello']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`the session's id is not a UUID: "../../\\u001b]0;pwned\\u0007"`);
    expect(r.stderr).not.toContain('\u001b');
    f.em.setMisbehaviour(undefined);
    const last = await f.run(['show', 'last']);
    expect(last.code).toBe(2);
  });

  it('send refuses a thread id carrying OSC 52: nothing reaches the terminal', async () => {
    const f = await fixture();
    const c = await f.run(['create', '-a', 'claude', 'hello']);
    const id = c.stdout.trim();
    expect(id).toMatch(UUID);
    f.em.setMisbehaviour({ badIds: 'thread' });
    const r = await f.run(['send', id, 'again'], { tty: { stdout: true, stderr: true } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`chat_thread_id is not a UUID: "\\u001b]52;c;cHduZWQ=\\u0007"`);
    expect(r.stderr + r.stdout).not.toContain('\u001b]52');
  });

  it('a message id is opaque: one with escape sequences is taken and never reaches a terminal raw', async () => {
    const f = await fixture();
    const c = await f.run(['create', '-a', 'claude', '[[never]] [[steps:0]] hi']);
    expect(c.code, c.stderr).toBe(0);
    const id = c.stdout.trim();
    const thread = f.em.messages(id)[0]?.chat_thread_id ?? '';
    // An OSC title (ESC … BEL), and a one-character CSI (C1) with a bidi override, which JSON leaves raw.
    const osc = 'x\u001b]0;pwned\u0007';
    const c1 = 'y\u009b2J\u202e';
    const reply = { chat_thread_id: thread, role: 'assistant' } as const;
    f.em.addMessage(id, { ...reply, id: osc, type: 'message', message: 'one' });
    f.em.addMessage(id, { ...reply, id: c1, type: 'final_message', message: 'two' });
    const terminal = { tty: { stdout: true, stderr: true, columns: 200 }, env: { ...f.env, NO_COLOR: '1' } };
    const verbose = await f.run(['show', id, '--verbose'], terminal);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stdout).toContain('x^[]0;pwned^G');
    expect(verbose.stdout).toContain('y\\u{9b}2J\\u{202e}');
    const json = await f.run(['show', id, '--json'], terminal);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain('"y\\u009b2J\\u202e"');
    const doc = JSON.parse(json.stdout) as { messages: Message[] };
    expect(doc.messages.map((m) => m.id)).toEqual(expect.arrayContaining([osc, c1]));
    const tail = await f.run(['tail', id, '-n', '10', '--until-final', '--json'], terminal);
    expect(tail.code, tail.stderr).toBe(0);
    expect(tail.stdout).toContain('"x\\u001b]0;pwned\\u0007"');
    for (const r of [verbose, json, tail]) {
      // eslint-disable-next-line no-control-regex -- what must not reach the terminal
      expect(r.stdout + r.stderr).not.toMatch(/[\u0007\u001b\u009b\u202e]/);
    }
  });
});

describe('a thread still running', () => {
  it('show says so in words and as running_thread_id in --json; a finished one is null', async () => {
    const f = await fixture({ dialect: 'spec' });
    const c = await f.run(['create', '-a', 'claude', '[[never]] [[steps:0]] long task']);
    const id = c.stdout.trim();
    const thread = f.em.messages(id)[0]!.chat_thread_id!;
    const json = await f.run(['show', id, '--json']);
    expect((JSON.parse(json.stdout) as { running_thread_id: string | null }).running_thread_id).toBe(thread);
    const text = await f.run(['show', id]);
    expect(text.stdout).toMatch(/long task\n\(still running: no final reply yet\)\n$/);
    const tty = await f.run(['show', id, '--no-pager'], { tty: { stdout: true } });
    expect(tty.stdout).toContain('… still working: no final reply yet');
    f.em.addMessage(id, {
      chat_thread_id: thread,
      role: 'assistant',
      type: 'final_message',
      message: 'done',
    });
    const after = await f.run(['show', id, '--json']);
    expect((JSON.parse(after.stdout) as { running_thread_id: string | null }).running_thread_id).toBeNull();
    expect((await f.run(['show', id])).stdout).not.toContain('still running');
  });
});
