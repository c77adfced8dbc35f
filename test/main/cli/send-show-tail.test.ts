// `agents send`, `show` and `tail` end to end against the emulator (in-process).
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../../src/core/api/types.js';
import { DIALECTS, conversationOf, fixture as baseFixture, stopWhen, UUID } from '../../support/fixture.js';
import type { EmulatorOptions } from '../../../src/emulator/index.js';
import { FAST_TUNING } from '../../support/main.js';

async function created(f: Awaited<ReturnType<typeof baseFixture>>, text = 'first') {
  const r = await f.run(['create', '-a', 'claude', '--wait', '--json', text]);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as Message).chat_id;
}

// Every case runs against both dialects of the emulator: the spec to the letter, and the live service.
describe.each(DIALECTS)('against the %s dialect', (dialect) => {
  const fixture = (opts: EmulatorOptions = {}, extraEnv: NodeJS.ProcessEnv = {}) =>
    baseFixture({ dialect, ...opts }, extraEnv);

  describe('agents send', () => {
    it('prints <session>/<thread> of the new thread (what wait and --thread read) and makes it last', async () => {
      const f = await fixture();
      const id = await created(f);
      const r = await f.run(['send', id, 'again']);
      expect(r.code).toBe(0);
      const [session, thread = '', ...rest] = r.stdout.trim().split('/');
      expect(r.stdout).toBe(`${session}/${thread}\n`);
      expect(session).toBe(id);
      expect(thread).toMatch(UUID);
      expect(rest).toEqual([]);
      const user = f.em.messages(id).filter((m) => m.role === 'user');
      expect(user.at(-1)?.chat_thread_id).toBe(thread);
      // `last` is that session, and the printed reference is one wait takes.
      const waited = await f.run(['wait', r.stdout.trim()]);
      expect(waited.code).toBe(0);
      const again = await f.run(['show', 'last', '--thread', r.stdout.trim(), '--json']);
      expect(again.code).toBe(0);
      expect((JSON.parse(again.stdout) as { session: { id: string } }).session.id).toBe(id);
    });

    it('--wait waits for the final message of the new thread, never the older one', async () => {
      const f = await fixture();
      const id = await created(f, '[[reply:old%20answer]] first');
      const r = await f.run(['send', 'last', '--wait', '[[think:600]] [[reply:new%20answer]] second']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('new answer');
      expect(f.em.stats().followUps).toBe(1);
      expect(id).toMatch(UUID);
    });

    it('accepts a dashboard address as the session', async () => {
      const f = await fixture();
      const id = await created(f);
      const r = await f.run(['send', `${f.em.url}/app/sessions/${id}`, '--wait', '[[reply:ok]] x']);
      expect(r.stdout).toBe('ok');
    });

    it('interrupts the turn in progress (scripts are never asked)', async () => {
      const f = await fixture();
      const c = await f.run(['create', '-a', 'claude', '[[never]] long']);
      const id = c.stdout.trim();
      const r = await f.run(['send', id, '--wait', '[[reply:done]] stop that']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('done');
    });

    it('--follow --json prints the new thread as NDJSON, ending at its final message', async () => {
      const f = await fixture();
      const id = await created(f);
      const r = await f.run(['send', id, '--follow', '--json', '[[steps:3]] more']);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Message);
      expect(new Set(lines.map((m) => m.chat_thread_id)).size).toBe(1);
      expect(lines.at(-1)?.type).toBe('final_message');
    });

    it('--agent-profile-file is validated before anything is sent', async () => {
      const f = await fixture();
      const id = await created(f);
      f.em.resetStats();
      const r = await f.run(['send', id, '--agent-profile-file', '/nonexistent/p.json', 'x']);
      expect(r.code).toBe(2);
      expect(f.em.stats().requests).toBe(0);
    });
  });

  describe('agents show', () => {
    it('prints the session and its conversation grouped by thread, oldest first', async () => {
      const f = await fixture();
      const id = await created(f, '[[reply:answer%20one]] question one');
      await f.run(['send', id, '--wait', '[[reply:answer%20two]] question two']);
      const r = await f.run(['show', id]);
      expect(r.code).toBe(0);
      const out = r.stdout;
      for (const needle of [
        'id             ' + id,
        'private        no',
        'archived       no',
        'turn 1',
        'turn 2',
      ]) {
        expect(out).toContain(needle);
      }
      const order = ['question one', 'answer one', 'question two', 'answer two'].map((t) => out.indexOf(t));
      expect(order.every((i) => i >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
    });

    it('--json prints {session, messages} with user and assistant messages', async () => {
      const f = await fixture();
      const id = await created(f, '[[steps:2]] q');
      const r = await f.run(['show', id, '--json', '--all']);
      const doc = JSON.parse(r.stdout) as { session: Session; messages: Message[] };
      expect(doc.session.id).toBe(id);
      expect(doc.messages.map((m) => m.role)).toContain('user');
      expect(doc.messages.some((m) => m.type === 'tool_call')).toBe(false);
      const withTools = JSON.parse((await f.run(['show', id, '--json', '--all', '--tools'])).stdout) as {
        messages: Message[];
      };
      expect(withTools.messages.some((m) => m.type === 'tool_call')).toBe(true);
    });

    it('--limit keeps the newest N; --all pages through every message', async () => {
      const f = await fixture();
      const id = await created(f, '[[burst:240]] big');
      const limited = JSON.parse((await f.run(['show', id, '--json', '--limit', '3'])).stdout) as {
        messages: Message[];
      };
      expect(limited.messages.length).toBe(3);
      expect(limited.messages.at(-1)?.type).toBe('final_message');
      const all = JSON.parse((await f.run(['show', id, '--json', '--all', '--tools'])).stdout) as {
        messages: Message[];
      };
      // 1 user message + 240 burst messages + the final one, each once, oldest first.
      expect(all.messages.length).toBe(242);
      expect(new Set(all.messages.map((m) => m.id)).size).toBe(242);
      const times = all.messages.map((m) => Date.parse(m.created_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });

    it('--thread limits to one thread', async () => {
      const f = await fixture();
      const id = await created(f, 'one');
      const thread = (await f.run(['send', id, '--wait', 'two'])).stdout;
      const sent =
        f.em
          .messages(id)
          .filter((m) => m.role === 'user')
          .at(-1)?.chat_thread_id ?? '';
      const r = JSON.parse((await f.run(['show', id, '--json', '--thread', sent])).stdout) as {
        messages: Message[];
      };
      expect(r.messages.every((m) => m.chat_thread_id === sent)).toBe(true);
      expect(thread).toContain('two');
    });

    it('says when --limit cut the conversation (stderr), keeping stdout clean', async () => {
      const f = await fixture();
      const id = await created(f, '[[steps:4]] q');
      const r = await f.run(['show', id, '--limit', '2']);
      expect(r.stderr).toContain('--all');
    });
  });

  describe('agents tail', () => {
    it('prints the last N messages and exits at the final one with --until-final', async () => {
      const f = await fixture();
      const id = await created(f, '[[steps:5]] q');
      const r = await f.run(['tail', id, '-n', '3', '--until-final', '--json']);
      expect(r.code).toBe(0);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Message);
      expect(lines.length).toBe(3);
      expect(lines.at(-1)?.type).toBe('final_message');
    });

    it('follows a new turn to its final message, each message once', async () => {
      const f = await fixture();
      const id = await created(f, 'q');
      await f.run(['send', id, '[[think:20000]] [[steps:4]] [[gap:6000]] next']);
      const r = await f.run(['tail', id, '-n', '0', '--until-final', '--json', '--tools']);
      expect(r.code).toBe(0);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Message);
      const thread = f.em
        .messages(id)
        .filter((m) => m.role === 'user')
        .at(-1)?.chat_thread_id;
      const want = conversationOf(f.em.messages(id), thread).map((m) => m.id);
      expect(lines.map((m) => m.id)).toEqual(want);
    });

    it('--until-final ends right after the backlog when the latest turn has already ended', async () => {
      const f = await fixture();
      const id = await created(f, '[[reply:the%20end]] q');
      const r = await f.run(['tail', id, '-n', '1', '--until-final']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('the end\n');
    });

    it('--timeout ends with 124 and a resume hint', async () => {
      const f = await fixture();
      const c = await f.run(['create', '-a', 'claude', '[[never]] q']);
      const r = await f.run(['tail', c.stdout.trim(), '--timeout', '1s']);
      expect(r.code).toBe(124);
      expect(r.stderr).toContain(`agents tail ${c.stdout.trim()}`);
    });

    it('a closed pipe ends it quietly', async () => {
      const f = await fixture();
      const c = await f.run(['create', '-a', 'claude', '[[steps:200]] [[gap:100]] q']);
      const id = c.stdout.trim();
      // The reader goes away once the first lines have arrived (a real pipe: test/process/signals.test.ts).
      const r = await f.run(['tail', id, '-n', '5'], {
        onStart: stopWhen((run) => run.stdout !== '', 'EPIPE'),
      });
      expect(r.signal).toBeNull();
      expect(r.stderr).toBe('');
      expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
      expect(r.code).toBe(0);
    });
  });

  describe('a base URL over plain http to another host', () => {
    it('warns that the key would travel in clear, then works (through a proxy, so the host need not exist)', async () => {
      const f = await fixture();
      const r = await f.run(['show', '00000000-0000-4000-8000-000000000000'], {
        env: { ...f.env, AGENTS_BASE_URL: 'http://agents.example', HTTP_PROXY: f.em.url, NO_PROXY: '' },
      });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(
        /^warning: http:\/\/agents\.example uses plain http:\/\/: the API key would travel/m,
      );
    });

    it('says nothing for loopback', async () => {
      const f = await fixture();
      const r = await f.run(['show', '00000000-0000-4000-8000-000000000000']);
      expect(r.code).toBe(4);
      expect(r.stderr).not.toContain('warning');
    });
  });
});

describe('a request that waits for the key’s budget', () => {
  // Two requests a window of 1.5 s: show's third GET waits about 1.5 s for a slot.
  const tuning = { ...FAST_TUNING, pacing: { limit: 2, windowMs: 1500 } };

  it('is told on a terminal (a wait can last a minute), and never on a pipe', async () => {
    const f = await baseFixture();
    const id = await created(f);
    const NOTICE = 'waiting for a request slot';
    const shown = await f.run(['show', id], { tuning, tty: { stderr: true, stdout: true } });
    expect(shown.code).toBe(0);
    expect(shown.stderr).toContain(NOTICE);
    const piped = await f.run(['show', id, '--json'], { tuning });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain(NOTICE);
    expect((JSON.parse(piped.stdout) as { session: Session }).session.id).toBe(id);
  });

  it('AGENTS_RATE_LIMIT is the share of the key this machine may spend: 2 a minute, and show waits after 2', async () => {
    const f = await baseFixture();
    const id = await created(f);
    f.em.resetStats();
    let stop: (() => void) | undefined;
    const r = await f.run(['show', id], {
      env: { ...f.env, AGENTS_RATE_LIMIT: '2' },
      // The program's own pacing, as a user's run has it (the suite's default turns pacing off).
      tuning: { ...FAST_TUNING, pacing: undefined },
      tty: { stderr: true, stdout: true },
      onStart: (run) => {
        const poll = setInterval(() => {
          if (!run.stderr.includes('2 requests a minute for this key (AGENTS_RATE_LIMIT)')) return;
          clearInterval(poll);
          run.kill('SIGINT');
        }, 20);
        stop = () => clearInterval(poll);
      },
    });
    stop?.();
    expect(r.code).toBe(130);
    expect(f.em.stats().requests).toBe(2);
  });

  it('a bad AGENTS_RATE_LIMIT is a usage error, and nothing is sent', async () => {
    const f = await baseFixture();
    for (const bad of ['0', '101', '2.5', 'lots']) {
      const r = await f.run(['show', UUID_EXAMPLE], { env: { ...f.env, AGENTS_RATE_LIMIT: bad } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^error: AGENTS_RATE_LIMIT=".*" is not a number of requests a minute from 1 to 100\n/,
      );
    }
    expect(f.em.stats().requests).toBe(0);
  });
});

const UUID_EXAMPLE = '0b5e8f3c-1d2a-4c3b-9e8f-7a6b5c4d3e2f';
