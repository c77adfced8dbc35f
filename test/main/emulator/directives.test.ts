// The scripted agents: defaults and every [[directive]], checked on what the emulator stores.
// Turns run on a held clock the test moves, so each schedule is checked to the millisecond and nothing
// waits; one test plays a turn on real timers, with lower bounds only (never speed limits).
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../../src/core/api/types.js';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_SCRIPT,
  parseDirectives,
  planTurn,
  stripDirectives,
} from '../../../src/emulator/directives.js';
import { DIRECTIVE_TABLE } from '../../../src/emulator/directive-table.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { call, create, finalOf, list, ms, ofThread, start } from '../../support/api-calls.js';

/** Creates a session on timed turns and waits for its first turn's final. */
async function turn(em: RunningEmulator, text: string) {
  const s = await create(em, text);
  const tid = s.thread_id ?? '';
  const user = em.messages(s.id)[0] as Message;
  await finalOf(em, s.id, tid);
  return { s, user, msgs: ofThread(em, s.id, tid) };
}

/**
 * A turn on a held clock: `at(ms)` moves it on to that many ms after the user message and returns the
 * types stored so far, so each directive's schedule is checked exactly, with no timer to wait for.
 */
async function heldTurn(text: string) {
  const em = await start({ turns: 'held', turnMsPerRequest: 0 });
  const s = await create(em, text);
  const tid = s.thread_id ?? '';
  const user = em.messages(s.id)[0] as Message;
  let now = 0;
  const msgs = () => ofThread(em, s.id, tid);
  return {
    em,
    s,
    user,
    msgs,
    at(ms: number): string[] {
      em.advanceTurns(ms - now);
      now = ms;
      return msgs().map((m) => m.type);
    },
  };
}

const sec = (m: Message) => Math.floor(ms(m.created_at) / 1000);
/** When each message was stamped, in ms after the user message. */
const offsets = (user: Message, msgs: Message[]) => msgs.map((m) => ms(m.created_at) - ms(user.created_at));

describe('default script', () => {
  it('thinks 300 ms, stores a message and a tool_call 200 ms apart, then the final 200 ms later', async () => {
    const t = await heldTurn('default');
    expect(t.at(299)).toEqual([]);
    expect(t.at(300)).toEqual(['message']);
    expect(t.at(500)).toEqual(['message', 'tool_call']);
    expect(t.at(699)).toEqual(['message', 'tool_call']);
    expect(t.at(700)).toEqual(['message', 'tool_call', 'final_message']);
    expect(t.em.heldTurnEvents()).toBe(0);
    // What the store stamps moves with the held clock. Ties are bumped by 1 ms, never repeated: a user
    // message bumped so, and a message stamped in the same real millisecond, are 1 ms nearer.
    offsets(t.user, t.msgs()).forEach((o, i) => expect(o).toBeGreaterThanOrEqual([300, 500, 700][i]! - 1));
  });

  it('plays out on real timers when turns are timed (timeScale scales them)', async () => {
    const em = await start({ turns: 'timed', timeScale: 0.05 });
    const { user, msgs } = await turn(em, 'default');
    expect(msgs.map((m) => m.type)).toEqual(['message', 'tool_call', 'final_message']);
    // Lower bounds only: a loaded machine runs timers late, never early. The stamps are whole milliseconds,
    // and the user message may have been bumped by one (a tie): 2 ms of slack, not a share of the delay.
    offsets(user, msgs).forEach((o, i) => expect(o).toBeGreaterThanOrEqual([15, 25, 35][i]! - 2));
    expect(() => em.endTurns()).toThrow(/timed/);
  });

  it('gives integer epoch-second ts and strictly increasing created_at', async () => {
    const t = await heldTurn('[[steps:20]] [[gap:0]]');
    t.em.endTurns();
    const all = t.em.messages(t.s.id);
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
    const t = await heldTurn('[[think:3000]] hi');
    expect(t.at(2999)).toEqual([]);
    expect(t.at(3000)).toEqual(['message']);
    expect(t.at(3400)).toEqual(['message', 'tool_call', 'final_message']);
  });

  it('[[steps:N]] alternates message / tool_call, [[gap:MS]] spaces them', async () => {
    const t = await heldTurn('[[think:0]] [[steps:5]] [[gap:1000]]');
    expect(t.at(0)).toEqual(['message']);
    expect(t.at(999)).toHaveLength(1);
    expect(t.at(1000)).toEqual(['message', 'tool_call']);
    expect(t.at(4999)).toHaveLength(5);
    expect(t.at(5000)).toEqual(['message', 'tool_call', 'message', 'tool_call', 'message', 'final_message']);
  });

  it('[[steps:0]] goes straight to the final message', async () => {
    const t = await heldTurn('[[steps:0]]');
    expect(t.at(299)).toEqual([]);
    expect(t.at(300)).toEqual(['final_message']);
  });

  it('[[turn:MS]] lands the final MS after the user message, intermediates spread evenly before it', async () => {
    const t = await heldTurn('[[turn:4000]] [[steps:3]]');
    expect(t.at(999)).toEqual([]);
    expect(t.at(1000)).toEqual(['message']);
    expect(t.at(2000)).toEqual(['message', 'tool_call']);
    expect(t.at(3999)).toEqual(['message', 'tool_call', 'message']);
    expect(t.at(4000)).toEqual(['message', 'tool_call', 'message', 'final_message']);
  });

  it('[[never]] runs the intermediates but never stores a final message', async () => {
    const t = await heldTurn('[[never]] [[steps:2]]');
    t.em.endTurns(); // everything the turn will ever store
    expect(t.msgs().map((m) => m.type)).toEqual(['message', 'tool_call']);
    expect(t.at(24 * 3_600_000)).toEqual(['message', 'tool_call']);
  });

  it('[[burst:N]] stores N intermediates at one instant with one ts, then the final a gap later', async () => {
    const t = await heldTurn('[[burst:6]] [[gap:1000]] [[think:0]]');
    const steps = ['message', 'tool_call', 'message', 'tool_call', 'message', 'tool_call'];
    expect(t.at(0)).toEqual(steps);
    expect(t.at(999)).toEqual(steps);
    expect(t.at(1000)).toEqual([...steps, 'final_message']);
    expect(
      new Set(
        t
          .msgs()
          .slice(0, 6)
          .map((m) => m.ts),
      ).size,
    ).toBe(1);
  });
});

describe('ts directives', () => {
  it('[[same-ts]] gives every message of the turn the first one ts, across a second boundary', async () => {
    const t = await heldTurn('[[same-ts]] [[think:0]] [[steps:2]] [[gap:6000]]');
    t.em.endTurns();
    const msgs = t.msgs();
    expect(sec(msgs[2] as Message)).toBeGreaterThan(sec(msgs[0] as Message));
    expect(new Set(msgs.map((m) => m.ts))).toEqual(new Set([sec(msgs[0] as Message)]));
  });

  it.each(['spec', 'live'] as const)(
    '[[instant]] (%s) stamps the whole turn at the user message: one created_at, one whole-second ts, lists in storage order',
    async (dialect) => {
      const em = await start({ dialect, turns: 'held', turnMsPerRequest: 0 });
      const made = await call(em, 'POST', '/rest/v1/sessions', {
        body: { agent_name: 'claude', message: '[[instant]] [[steps:3]] [[gap:1500]] [[notice:n]] q' },
      });
      const s = made.json as Session;
      em.advanceTurns(2000);
      const [user, ...early] = em.messages(s.id);
      expect(early.length).toBeGreaterThan(0);
      em.endTurns();
      const stored = em.messages(s.id);
      // The turn's messages landed over seconds of the clock, yet carry the user message's instant.
      expect(new Set(stored.map((m) => m.created_at))).toEqual(new Set([user?.created_at]));
      const second = Math.floor(ms(user!.created_at) / 1000);
      for (const m of stored) expect(m.ts).toBe(m.role === 'user' && dialect === 'spec' ? null : second);
      const path = `/rest/v1/sessions/${s.id}/messages?limit=100&role=assistant&type=message&type=final_message&type=tool_call`;
      const asc = await list(em, `${path}&direction=asc`);
      const desc = await list(em, `${path}&direction=desc`);
      const ids = stored.filter((m) => m.role === 'assistant').map((m) => m.id);
      expect(asc.items.map((m) => m.id)).toEqual(ids);
      expect(desc.items.map((m) => m.id)).toEqual([...ids].reverse());
      // The next turn is stamped later again.
      const res = await call(em, 'POST', `/rest/v1/sessions/${s.id}/messages`, {
        body: { message: 'again' },
      });
      expect(Date.parse((res.json as Message).created_at)).toBeGreaterThan(ms(user!.created_at));
    },
  );

  it('[[ts-lag:S]] sets each ts S seconds before the moment stored', async () => {
    const t = await heldTurn('[[ts-lag:7]]');
    t.em.endTurns();
    for (const m of t.msgs()) expect(m.ts).toBe(sec(m) - 7);
  });

  it('[[ts-shuffle]] puts ts out of storage order, each within 3 s before the stored second', async () => {
    const t = await heldTurn('[[ts-shuffle]] [[steps:40]] [[gap:0]] [[think:0]]');
    t.em.endTurns();
    const msgs = t.msgs();
    for (const m of msgs) {
      expect(m.ts).toBeLessThanOrEqual(sec(m));
      expect(m.ts).toBeGreaterThanOrEqual(sec(m) - 3);
    }
    const ts = msgs.map((m) => m.ts ?? 0);
    expect(ts.some((x, i) => i > 0 && x < (ts[i - 1] ?? 0))).toBe(true);
  });
});

/** A held turn played to its end. */
async function ended(text: string) {
  const t = await heldTurn(text);
  t.em.endTurns();
  return { s: t.s, user: t.user, msgs: t.msgs() };
}

describe('reply directives', () => {
  it('[[size:N]] makes the final body exactly N ASCII bytes', async () => {
    const { msgs } = await ended('[[size:100000]]');
    const body = msgs.at(-1)?.message ?? '';
    expect(Buffer.byteLength(body)).toBe(100_000);
    expect(/^[\x20-\x7e]*$/.test(body)).toBe(true);
  });

  it('[[echo]] replies with the user text minus directives, hostile bytes and all', async () => {
    const text = '\x1b[2J\x1b]0;pwned\x07 clear [[echo]]screen\r\n\u202e olleh 🎉';
    const { user, msgs } = await ended(text);
    expect(user.message).toBe(text); // stored as sent, directives included
    expect(msgs.at(-1)?.message).toBe('\x1b[2J\x1b]0;pwned\x07 clear screen\r\n\u202e olleh 🎉');
  });

  it('[[reply:TEXT]] replies with TEXT, URL-decoded', async () => {
    const { msgs } = await ended('ignored [[reply:%1b%5B31mred%1b%5B0m%0Adone%5D%5D]]');
    expect(msgs.at(-1)?.message).toBe('\x1b[31mred\x1b[0m\ndone]]');
  });

  it('[[replies:A|B]] gives the session its final replies turn by turn, the last one for every later turn', async () => {
    const t = await heldTurn('first [[replies:not%20json|%7B%22ok%22:true%7D|a%7Cb]]');
    t.em.endTurns();
    const finals = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        const r = await call(t.em, 'POST', `/rest/v1/sessions/${t.s.id}/messages`, {
          body: { message: 'again' },
        });
        expect(r.status).toBe(201);
        t.em.endTurns();
      }
      return t.em
        .messages(t.s.id)
        .filter((m) => m.type === 'final_message')
        .map((m) => m.message);
    };
    expect(await finals(3)).toEqual(['not json', '{"ok":true}', 'a|b', 'a|b']);
    // A turn's own [[reply]] wins and leaves the queue where it was; a new [[replies]] starts over.
    await call(t.em, 'POST', `/rest/v1/sessions/${t.s.id}/messages`, { body: { message: '[[reply:own]]' } });
    t.em.endTurns();
    await call(t.em, 'POST', `/rest/v1/sessions/${t.s.id}/messages`, { body: { message: '[[replies:x]]' } });
    t.em.endTurns();
    expect((await finals(0)).slice(4)).toEqual(['own', 'x']);
  });

  it('ignores unknown directives and bad values', async () => {
    const { msgs } = await ended('hi [[bogus:1]] [[steps:many]] [[think]]');
    expect(msgs.map((m) => m.type)).toEqual(['message', 'tool_call', 'final_message']);
    expect(msgs.at(-1)?.message).toContain('hi');
  });

  it('leaves directives out of the title and the default reply', async () => {
    const { s, msgs } = await ended('Refactor [[steps:0]] the parser');
    expect(s.title).toBe('Refactor the parser');
    expect(msgs.at(-1)?.message).not.toContain('[[');
  });
});

/** A session created in any dialect (201 or 200). */
async function anyCreate(em: RunningEmulator, message: string): Promise<Session> {
  const r = await call(em, 'POST', '/rest/v1/sessions', { body: { agent_name: 'claude', message } });
  expect(r.status).toBeLessThan(300);
  return r.json as Session;
}

describe('a directive the dialect cannot honour', () => {
  it.each(['spec', 'ci-mock'] as const)(
    '%s: [[plan:…]] is said at once to onNotice and at the end of the reply; nothing else changes',
    async (dialect) => {
      const told: string[] = [];
      const em = await start({ dialect, turns: 'held', turnMsPerRequest: 0, onNotice: (l) => told.push(l) });
      const s = await anyCreate(em, '[[reply:done]] [[plan:%23%20Plan]] go');
      const said = `[[plan:…]] does nothing in the ${dialect} dialect, which has no plans; run the emulator with --dialect live`;
      expect(told).toEqual([`session ${s.id}: ${said}`]);
      em.endTurns();
      const msgs = ofThread(em, s.id, s.thread_id ?? '');
      expect(msgs.map((m) => m.type)).toEqual(['message', 'tool_call', 'final_message']);
      expect(msgs.at(-1)?.message).toBe(`done\n\n(emulator: ${said})`);
    },
  );

  it('live: the plan is made, and nothing is said', async () => {
    const told: string[] = [];
    const em = await start({
      dialect: 'live',
      turns: 'held',
      turnMsPerRequest: 0,
      onNotice: (l) => told.push(l),
    });
    const s = await anyCreate(em, '[[reply:done]] [[plan:%23%20Plan]] go');
    em.endTurns();
    expect(told).toEqual([]);
    const got = await call(em, 'GET', `/rest/v1/sessions/${s.id}`);
    expect((got.json as { plan_artifact_ids: string[] }).plan_artifact_ids).toHaveLength(1);
    expect(
      em
        .messages(s.id)
        .filter((m) => m.type === 'final_message')
        .map((m) => m.message),
    ).toEqual(['done']);
  });
});

describe('directive parsing (pure)', () => {
  it('--help lists exactly the directives the parser reads, and each row’s form does something', () => {
    // The parser's names, from its switch: a directive added there and not to the table fails here.
    const source = readFileSync(new URL('../../../src/emulator/directives.ts', import.meta.url), 'utf8');
    const read = [...source.matchAll(/^ {6}case '([a-z-]+)':/gm)].map((m) => m[1]).sort();
    const listed = DIRECTIVE_TABLE.map((r) => /^\[\[([a-z-]+)/.exec(r.usage)?.[1]).sort();
    expect(listed).toEqual(read);
    for (const { usage } of DIRECTIVE_TABLE) {
      const example = usage.replace(/:[A-Z|]+\]\]$/, (v) => (/MS|N|S\]/.test(v) ? ':7]]' : ':x]]'));
      expect(parseDirectives(example), usage).not.toEqual(DEFAULT_SCRIPT);
    }
  });

  it('reads every directive', () => {
    const s = parseDirectives(
      '[[think:1]][[steps:2]][[gap:3]][[turn:4]][[never]][[burst:5]][[same-ts]][[ts-lag:6]][[ts-shuffle]]' +
        '[[size:7]][[echo]][[reply:a%20b]][[orphan]][[replies:c|d%7Ce]][[instant]]',
    );
    expect(s).toEqual({
      thinkMs: 1,
      steps: 2,
      gapMs: 3,
      turnMs: 4,
      never: true,
      burst: 5,
      sameTs: true,
      instant: true,
      tsLagS: 6,
      tsShuffle: true,
      size: 7,
      echo: true,
      reply: 'a b',
      orphan: true,
      replies: ['c', 'd|e'],
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
