// The scripted agents: defaults and every [[directive]], checked on what the emulator stores.
// Time assertions are lower bounds on timers the emulator itself scheduled (never speed limits), with
// values chosen so that a broken directive lands far outside them.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/api/types.js';
import { parseDirectives, planTurn, stripDirectives } from '../../src/emulator/directives.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { create, finalOf, ms, ofThread, sleep, start, until } from './helpers.js';

/** Creates a session and waits for its first turn to store `count` assistant messages. */
async function turn(em: RunningEmulator, text: string, count?: number) {
  const s = await create(em, text);
  const tid = s.thread_id ?? '';
  const user = em.messages(s.id)[0] as Message;
  if (count === undefined) await finalOf(em, s.id, tid);
  else await until(() => (ofThread(em, s.id, tid).length >= count ? true : undefined));
  return { s, user, msgs: ofThread(em, s.id, tid) };
}

const sec = (m: Message) => Math.floor(ms(m.created_at) / 1000);

/**
 * Each message landed no earlier than its scheduled offset (ms after the user message), less 10% for
 * timer and clock granularity. Offsets are measured from the turn's start because each message has its
 * own timer: one firing late does not delay the next.
 */
function expectOffsets(user: Message, msgs: Message[], scheduled: number[]) {
  expect(msgs).toHaveLength(scheduled.length);
  msgs.forEach((m, i) => {
    expect(ms(m.created_at) - ms(user.created_at)).toBeGreaterThanOrEqual(0.9 * (scheduled[i] ?? 0));
  });
}

describe('default script', () => {
  it('thinks 300 ms, stores a message and a tool_call 200 ms apart, then the final 200 ms later', async () => {
    const em = await start({ timeScale: 0.5 });
    const { user, msgs } = await turn(em, 'default');
    expect(msgs.map((m) => m.type)).toEqual(['message', 'tool_call', 'final_message']);
    expectOffsets(user, msgs, [150, 250, 350]);
  });

  it('gives integer epoch-second ts and strictly increasing created_at', async () => {
    const em = await start({ timeScale: 0.01 });
    const { s } = await turn(em, '[[steps:20]] [[gap:0]]');
    const all = em.messages(s.id);
    for (const m of all.filter((x) => x.role === 'assistant')) {
      expect(Number.isInteger(m.ts)).toBe(true);
      expect(m.ts).toBe(sec(m));
    }
    const times = all.map((m) => ms(m.created_at));
    for (let i = 1; i < times.length; i += 1) expect(times[i]).toBeGreaterThan(times[i - 1] ?? 0);
  });
});

describe('timing directives', () => {
  it('[[think:MS]] delays the first assistant message', async () => {
    const em = await start({ timeScale: 0.1 });
    const { user, msgs } = await turn(em, '[[think:3000]] hi');
    expectOffsets(user, msgs, [300, 320, 340]);
  });

  it('[[steps:N]] alternates message / tool_call, [[gap:MS]] spaces them', async () => {
    const em = await start({ timeScale: 0.1 });
    const { user, msgs } = await turn(em, '[[think:0]] [[steps:5]] [[gap:1000]]');
    expect(msgs.map((m) => m.type)).toEqual([
      'message',
      'tool_call',
      'message',
      'tool_call',
      'message',
      'final_message',
    ]);
    expectOffsets(user, msgs, [0, 100, 200, 300, 400, 500]);
  });

  it('[[steps:0]] goes straight to the final message', async () => {
    const em = await start({ timeScale: 0.01 });
    const { msgs } = await turn(em, '[[steps:0]]');
    expect(msgs.map((m) => m.type)).toEqual(['final_message']);
  });

  it('[[turn:MS]] lands the final MS after the user message, intermediates spread evenly before it', async () => {
    const em = await start({ timeScale: 0.05 });
    const { user, msgs } = await turn(em, '[[turn:4000]] [[steps:3]]');
    expect(msgs.map((m) => m.type)).toEqual(['message', 'tool_call', 'message', 'final_message']);
    expectOffsets(user, msgs, [50, 100, 150, 200]);
  });

  it('[[never]] runs the intermediates but never stores a final message', async () => {
    const em = await start({ timeScale: 0.01 });
    const { s, msgs } = await turn(em, '[[never]] [[steps:2]]', 2);
    await sleep(100); // the default final would have landed after 7 ms
    expect(msgs.map((m) => m.type)).toEqual(['message', 'tool_call']);
    expect(ofThread(em, s.id, s.thread_id ?? '').some((m) => m.type === 'final_message')).toBe(false);
  });

  it('[[burst:N]] stores N intermediates at one instant with one ts, then the final a gap later', async () => {
    // Spaced out as ordinary steps, six messages 300 ms apart would span more than one ts second.
    const em = await start({ timeScale: 0.3 });
    const { user, msgs } = await turn(em, '[[burst:6]] [[gap:1000]] [[think:0]]');
    const steps = ['message', 'tool_call', 'message', 'tool_call', 'message', 'tool_call'];
    expect(msgs.map((m) => m.type)).toEqual([...steps, 'final_message']);
    expect(new Set(msgs.slice(0, 6).map((m) => m.ts)).size).toBe(1);
    expectOffsets(user, msgs, [0, 0, 0, 0, 0, 0, 300]);
  });
});

describe('ts directives', () => {
  it('[[same-ts]] gives every message of the turn the first one ts, across a second boundary', async () => {
    const em = await start({ timeScale: 0.1 });
    const { msgs } = await turn(em, '[[same-ts]] [[think:0]] [[steps:2]] [[gap:6000]]');
    expect(sec(msgs[2] as Message)).toBeGreaterThan(sec(msgs[0] as Message));
    expect(new Set(msgs.map((m) => m.ts))).toEqual(new Set([sec(msgs[0] as Message)]));
  });

  it('[[ts-lag:S]] sets each ts S seconds before the moment stored', async () => {
    const em = await start({ timeScale: 0.01 });
    const { msgs } = await turn(em, '[[ts-lag:7]]');
    for (const m of msgs) expect(m.ts).toBe(sec(m) - 7);
  });

  it('[[ts-shuffle]] puts ts out of storage order, each within 3 s before the stored second', async () => {
    const em = await start({ timeScale: 0.01 });
    const { msgs } = await turn(em, '[[ts-shuffle]] [[steps:40]] [[gap:0]] [[think:0]]');
    for (const m of msgs) {
      expect(m.ts).toBeLessThanOrEqual(sec(m));
      expect(m.ts).toBeGreaterThanOrEqual(sec(m) - 3);
    }
    const ts = msgs.map((m) => m.ts ?? 0);
    expect(ts.some((t, i) => i > 0 && t < (ts[i - 1] ?? 0))).toBe(true);
  });
});

describe('reply directives', () => {
  it('[[size:N]] makes the final body exactly N ASCII bytes', async () => {
    const em = await start({ timeScale: 0.01 });
    const { msgs } = await turn(em, '[[size:100000]]');
    const body = msgs.at(-1)?.message ?? '';
    expect(Buffer.byteLength(body)).toBe(100_000);
    expect(/^[\x20-\x7e]*$/.test(body)).toBe(true);
  });

  it('[[echo]] replies with the user text minus directives, hostile bytes and all', async () => {
    const em = await start({ timeScale: 0.01 });
    const text = '\x1b[2J\x1b]0;pwned\x07 clear [[echo]]screen\r\n\u202e olleh 🎉';
    const { user, msgs } = await turn(em, text);
    expect(user.message).toBe(text); // stored as sent, directives included
    expect(msgs.at(-1)?.message).toBe('\x1b[2J\x1b]0;pwned\x07 clear screen\r\n\u202e olleh 🎉');
  });

  it('[[reply:TEXT]] replies with TEXT, URL-decoded', async () => {
    const em = await start({ timeScale: 0.01 });
    const { msgs } = await turn(em, 'ignored [[reply:%1b%5B31mred%1b%5B0m%0Adone%5D%5D]]');
    expect(msgs.at(-1)?.message).toBe('\x1b[31mred\x1b[0m\ndone]]');
  });

  it('ignores unknown directives and bad values', async () => {
    const em = await start({ timeScale: 0.01 });
    const { msgs } = await turn(em, 'hi [[bogus:1]] [[steps:many]] [[think]]');
    expect(msgs.map((m) => m.type)).toEqual(['message', 'tool_call', 'final_message']);
    expect(msgs.at(-1)?.message).toContain('hi');
  });

  it('leaves directives out of the title and the default reply', async () => {
    const em = await start({ timeScale: 0.01 });
    const { s, msgs } = await turn(em, 'Refactor [[steps:0]] the parser');
    expect(s.title).toBe('Refactor the parser');
    expect(msgs.at(-1)?.message).not.toContain('[[');
  });
});

describe('directive parsing (pure)', () => {
  it('reads every directive', () => {
    const s = parseDirectives(
      '[[think:1]][[steps:2]][[gap:3]][[turn:4]][[never]][[burst:5]][[same-ts]][[ts-lag:6]][[ts-shuffle]]' +
        '[[size:7]][[echo]][[reply:a%20b]][[orphan]]',
    );
    expect(s).toEqual({
      thinkMs: 1,
      steps: 2,
      gapMs: 3,
      turnMs: 4,
      never: true,
      burst: 5,
      sameTs: true,
      tsLagS: 6,
      tsShuffle: true,
      size: 7,
      echo: true,
      reply: 'a b',
      orphan: true,
    });
  });

  it('plans the default turn and a burst', () => {
    expect(planTurn(parseDirectives('')).map((e) => [e.atMs, e.kind, e.count])).toEqual([
      [300, 'steps', 1],
      [500, 'steps', 1],
      [700, 'final', 1],
    ]);
    expect(planTurn(parseDirectives('[[burst:3]][[gap:50]]')).map((e) => [e.atMs, e.kind, e.count])).toEqual([
      [300, 'steps', 3],
      [350, 'final', 1],
    ]);
  });

  it('strips directives without touching anything else', () => {
    expect(stripDirectives('  a [[x]]b[[reply:c]] \n')).toBe('  a b \n');
  });
});
