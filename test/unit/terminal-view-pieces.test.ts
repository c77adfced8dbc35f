// Pure pieces of the terminal view (issue 14): times, markdown, the screen's height, hyperlink and
// notification support, the pager and browser decisions, the known-sessions store and its renderers.
import { describe, expect, it } from 'vitest';
import { localTime, relativeTime } from '../../src/cli/output/time.js';
import { timeZoneFrom } from '../../src/core/config/env.js';
import { keepOwnSequences, loadMarkdown } from '../../src/cli/output/markdown.js';
import { screenLines } from '../../src/cli/output/screen.js';
import { supportsHyperlinks } from '../../src/cli/output/terminal.js';
import { notificationBytes, notificationEscape, notify } from '../../src/cli/output/notify.js';
import { noBrowserReason, pagerCommand, pagerEnv } from '../../src/core/config/env.js';
import { filterChoices } from '../../src/cli/output/prompts.js';
import {
  knownSessions,
  MAX_SESSIONS,
  withSessionFacts,
  withUsedSession,
  type KnownSession,
} from '../../src/core/state/known-sessions.js';
import {
  renderSessions,
  renderSessionsPlain,
  sessionChoiceLabel,
} from '../../src/cli/output/render-sessions.js';
import { readConversation } from '../../src/core/conversation/model.js';
import { latestTurnState } from '../../src/core/conversation/turn-state.js';
import { renderEntry, renderTurnHeading } from '../../src/cli/output/render-conversation.js';
import { classify } from '../../src/core/conversation/model.js';
import { Stderr } from '../../src/cli/output/stderr.js';
import { PLAIN } from '../../src/cli/output/style.js';
import { width } from '../../src/util/width.js';
import type { Message } from '../../src/core/api/types.js';

// eslint-disable-next-line no-control-regex -- escape sequences are what is looked for
const ANY_ESCAPE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;
// eslint-disable-next-line no-control-regex
const OSC8 = /\u001b\]8;;[^\u0007]*\u0007/g;
const visible = (s: string) => s.replace(SGR, '').replace(OSC8, '');

const NOW = Date.parse('2026-11-23T14:40:00Z');
const PARIS = { now: NOW, timeZone: 'Europe/Paris' };

describe('times on a terminal', () => {
  it('local clock time: today, this year, before', () => {
    expect(localTime('2026-11-23T13:34:11.389Z', PARIS)).toBe('14:34');
    expect(localTime('2026-11-20T08:05:00Z', PARIS)).toBe('20 Nov 09:05');
    expect(localTime('2025-02-01T23:30:00Z', PARIS)).toBe('2 Feb 2025 00:30');
    expect(localTime('2026-11-23T13:34:11Z', { now: NOW, timeZone: 'UTC' })).toBe('13:34');
    expect(localTime('not a time', PARIS)).toBe('not a time');
  });
  it('relative: just now, minutes, hours, days, then the date', () => {
    const at = (ms: number) => new Date(NOW - ms).toISOString();
    expect(relativeTime(at(10_000), PARIS)).toBe('just now');
    expect(relativeTime(at(2 * 60_000), PARIS)).toBe('2 min ago');
    expect(relativeTime(at(3 * 3_600_000 + 60_000), PARIS)).toBe('3 h ago');
    expect(relativeTime(at(26 * 3_600_000), PARIS)).toBe('yesterday');
    expect(relativeTime(at(3 * 86_400_000), PARIS)).toBe('3 days ago');
    expect(relativeTime(at(30 * 86_400_000), PARIS)).toBe('24 Oct 16:40'); // summer time then
    // A clock far behind the service's: the date, not "in 3 h".
    expect(relativeTime(at(-3 * 3_600_000), PARIS)).toBe('18:40');
  });
  it('a TZ Intl does not know falls back to the system zone', () => {
    expect(timeZoneFrom('Europe/Paris')).toBe('Europe/Paris');
    expect(timeZoneFrom(':/etc/localtime')).toBeUndefined();
    expect(timeZoneFrom('')).toBeUndefined();
  });
});

const MD = [
  '# Title',
  '',
  'Some **bold**, *em* and `code`, a [link](https://example.com/x) and a line long enough to be wrapped at forty columns.',
  '',
  '- one',
  '- two with **bold**',
  '',
  '```ts',
  'const a = 1;',
  '```',
  '',
  '> quoted',
].join('\n');

describe('markdown on a terminal', () => {
  it('without colour: structure, no fences, no markers, links written out, wrapped to the width', async () => {
    const md = await loadMarkdown({ columns: 40, color: false, hyperlinks: false });
    const out = md(MD);
    expect(out).not.toMatch(ANY_ESCAPE);
    expect(out).toContain('# Title');
    expect(out).not.toContain('**');
    expect(out).not.toContain('```');
    expect(out).toContain('two with bold');
    expect(out).toContain('  const a = 1;');
    expect(out).toMatch(/link\s\(https:\/\/example\.com\/x\)/);
    expect(out).toContain('│ quoted');
    for (const l of out.split('\n')) expect(width(l)).toBeLessThanOrEqual(40);
    expect(out.endsWith('\n') && !out.endsWith('\n\n')).toBe(true);
  });
  it('with colour: SGR styling and OSC 8 hyperlinks where the terminal takes them', async () => {
    const md = await loadMarkdown({ columns: 80, color: true, hyperlinks: true });
    const out = md(MD);
    expect(out).toMatch(SGR);
    expect(out).toContain('\u001b]8;;https://example.com/x\u0007link\u001b]8;;\u0007');
    expect(visible(out)).not.toContain('# Title');
    expect(visible(out)).not.toContain('**');
    const plain = await loadMarkdown({ columns: 80, color: true, hyperlinks: false });
    expect(plain(MD)).not.toContain('\u001b]8');
  });
  it('only web addresses become hyperlinks', async () => {
    const md = await loadMarkdown({ columns: 80, color: false, hyperlinks: true });
    expect(md('[x](file:///etc/passwd)')).toBe('x (file:///etc/passwd)\n');
    expect(md('[x](https://a.example/)')).toContain('\u001b]8;;https://a.example/\u0007x');
  });
  it("the service's escape sequences stay visible and harmless, however they are spelt", async () => {
    const md = await loadMarkdown({ columns: 80, color: true, hyperlinks: true });
    const hostile = [
      'A\u001b[2J\u001b]52;c;ZXZpbA==\u0007B',
      '&#27;[2J and &#x1b;]0;title&#7;',
      'a \u001b]8;;https://evil.example\u0007fake\u001b]8;;\u0007 link',
      '\ue0000\ue001spoofed\ue002',
      '`\u009b2J` and **\u001b[31mred**',
      '```\n\u001b[2J in code\n```',
    ].join('\n\n');
    const out = md(hostile);
    // What is left: the renderer's own SGR and hyperlinks, nothing else that a terminal would act on.
    expect(visible(out)).not.toMatch(ANY_ESCAPE);
    expect(out).toContain('^[[2J');
    expect(out).toContain('^[]52;c;ZXZpbA==^G');
    expect(out).not.toContain('evil.example\u0007');
    expect(out).not.toContain('\ue000');
  });
  it('keepOwnSequences keeps SGR and OSC 8 to addresses, and makes the rest visible', () => {
    expect(keepOwnSequences('\u001b[1mx\u001b[22m')).toBe('\u001b[1mx\u001b[22m');
    expect(keepOwnSequences('\u001b]8;;https://a\u0007t\u001b]8;;\u0007')).toBe(
      '\u001b]8;;https://a\u0007t\u001b]8;;\u0007',
    );
    expect(keepOwnSequences('\u001b[2J\u001b]0;t\u0007')).toBe('^[[2J^[]0;t^G');
  });
});

describe('screen height', () => {
  it('counts wrapped lines, wide characters, and no escape sequences', () => {
    expect(screenLines('a\nb\n', 80)).toBe(2);
    expect(screenLines('x'.repeat(81), 80)).toBe(2);
    expect(screenLines('漢'.repeat(41), 80)).toBe(2);
    expect(screenLines(`\u001b[1m${'x'.repeat(80)}\u001b[22m`, 80)).toBe(1);
    expect(screenLines('\n\n', 40)).toBe(2);
  });
});

describe('what the terminal supports', () => {
  it.each([
    [{ TERM_PROGRAM: 'iTerm.app' }, true],
    [{ TERM_PROGRAM: 'WezTerm' }, true],
    [{ TERM_PROGRAM: 'vscode' }, true],
    [{ TERM: 'xterm-kitty' }, true],
    [{ VTE_VERSION: '7200' }, true],
    [{ VTE_VERSION: '4600' }, false],
    [{ WT_SESSION: 'x' }, true],
    [{ TERM_PROGRAM: 'Apple_Terminal' }, false],
    [{ TERM: 'xterm-256color' }, false],
    [{ TERM_PROGRAM: 'iTerm.app', TMUX: '/tmp/x' }, false],
    [{ TERM_PROGRAM: 'iTerm.app', CI: 'true' }, false],
    [{ FORCE_HYPERLINK: '1' }, true],
    [{ TERM_PROGRAM: 'iTerm.app', FORCE_HYPERLINK: '0' }, false],
  ])('hyperlinks %j: %s', (env, expected) => {
    expect(supportsHyperlinks(env)).toBe(expected);
  });
  it.each([
    [{ TERM_PROGRAM: 'iTerm.app' }, 'osc9'],
    [{ TERM_PROGRAM: 'WezTerm' }, 'osc9'],
    [{ TERM_PROGRAM: 'ghostty' }, 'osc9'],
    [{ TERM: 'xterm-kitty' }, 'osc9'],
    [{ TERM: 'foot' }, 'osc777'],
    [{ TERM: 'rxvt-unicode-256color' }, 'osc777'],
    [{ VTE_VERSION: '7600' }, 'osc777'],
    [{ TERM_PROGRAM: 'Apple_Terminal' }, undefined],
    [{ TERM_PROGRAM: 'iTerm.app', TMUX: '/tmp/t' }, undefined],
    [{ TERM: 'screen-256color', VTE_VERSION: '7600' }, undefined],
    [{}, undefined],
  ])('notification escape %j: %s', (env, expected) => {
    expect(notificationEscape(env)).toBe(expected);
  });
});

describe('--notify', () => {
  it('rings the bell, and adds the escape the terminal shows as a desktop notification', () => {
    const n = { title: 'agents', body: 'claude replied: Fix the test' };
    expect(notificationBytes({}, n)).toBe('\u0007');
    expect(notificationBytes({ TERM_PROGRAM: 'iTerm.app' }, n)).toBe(
      '\u0007\u001b]9;agents: claude replied: Fix the test\u0007',
    );
    expect(notificationBytes({ TERM: 'foot' }, n)).toBe(
      '\u0007\u001b]777;notify;agents;claude replied: Fix the test\u0007',
    );
  });
  it('a title from the service cannot end the sequence or add fields', () => {
    const out = notificationBytes(
      { TERM: 'foot' },
      { title: 'agents', body: 'x\u0007\u001b]52;c;ZXZpbA==\u001b\\;evil' },
    );
    expect(out).toBe('\u0007\u001b]777;notify;agents;x ]52,c,ZXZpbA== \\,evil\u0007');
  });
  it('writes nothing when stderr is not a terminal, or with --no-notify', async () => {
    const chunks: string[] = [];
    const stream = { write: (s: string) => chunks.push(s) } as unknown as NodeJS.WritableStream;
    const n = { title: 'agents', body: 'done' };
    const target = (tty: boolean, notify?: string) => ({
      io: { env: {} },
      caps: { stderrIsTTY: tty },
      stderr: new Stderr(stream),
      log: { warn: (l: string) => chunks.push(`warning: ${l}`) },
      settings: () => Promise.resolve({ notify }),
    });
    await notify(target(false), n, true);
    expect(chunks).toEqual([]);
    await notify(target(true), n, false);
    await notify(target(true, 'terminal'), n, false);
    expect(chunks).toEqual([]);
    await notify(target(true), n, true);
    expect(chunks).toEqual(['\u0007']);
    // The setting alone: terminal rings, off and unset do not.
    await notify(target(true, 'terminal'), n, undefined);
    await notify(target(true, 'off'), n, undefined);
    await notify(target(true), n, undefined);
    expect(chunks).toEqual(['\u0007', '\u0007']);
  });
});

describe('pager and browser decisions', () => {
  it('AGENTS_PAGER, then PAGER, then less -FRX; empty or cat: none', () => {
    expect(pagerCommand({})).toBe('less -FRX');
    expect(pagerCommand({ PAGER: 'more' })).toBe('more');
    expect(pagerCommand({ PAGER: 'more', AGENTS_PAGER: 'bat -p' })).toBe('bat -p');
    expect(pagerCommand({ PAGER: 'less', AGENTS_PAGER: '' })).toBeUndefined();
    expect(pagerCommand({ PAGER: 'cat' })).toBeUndefined();
    expect(pagerEnv({}).LESS).toBe('FRX');
    expect(pagerEnv({ LESS: '-S' }).LESS).toBe('-S');
  });
  it('no browser under CI, over SSH, or on a Linux without a display', () => {
    expect(noBrowserReason({ CI: 'true', DISPLAY: ':0' }, 'linux')).toBe('running under CI');
    expect(noBrowserReason({ SSH_CONNECTION: '1 2 3 4', DISPLAY: ':0' }, 'linux')).toBe('an SSH session');
    expect(noBrowserReason({}, 'linux')).toBe('no display');
    expect(noBrowserReason({ DISPLAY: ':0' }, 'linux')).toBeUndefined();
    expect(noBrowserReason({ WAYLAND_DISPLAY: 'wayland-0' }, 'freebsd')).toBeUndefined();
    expect(noBrowserReason({ WSL_DISTRO_NAME: 'Debian' }, 'linux')).toBeUndefined();
    expect(noBrowserReason({}, 'darwin')).toBeUndefined();
    expect(noBrowserReason({}, 'win32')).toBeUndefined();
  });
});

const S = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A profile's history on a service (the state file unused by the pure functions). */
const H = (
  profile: string,
  baseUrl: string | undefined = 'https://agents.example',
  legacyBaseUrl = baseUrl,
) => ({
  profile,
  baseUrl,
  legacyBaseUrl,
});

describe('the sessions this machine knows', () => {
  it('most recently used first, facts merged, bounded to MAX_SESSIONS per profile', () => {
    let data: Record<string, unknown> = {};
    for (let i = 0; i < MAX_SESSIONS + 5; i++) {
      data = withUsedSession(
        data,
        H('default'),
        { id: S(i), title: `t${i}`, agent: 'claude' },
        new Date(NOW + i),
      );
    }
    data = withUsedSession(data, H('work'), { id: S(1) }, new Date(NOW));
    const list = knownSessions(data, H('default'));
    expect(list).toHaveLength(MAX_SESSIONS);
    expect(list[0]?.id).toBe(S(MAX_SESSIONS + 4));
    expect(knownSessions(data, H('work')).map((s) => s.id)).toEqual([S(1)]);
    // Used again: to the front, its title kept when the new facts have none.
    data = withUsedSession(data, H('default'), { id: S(50), state: 'working' }, new Date(NOW + 1000));
    const again = knownSessions(data, H('default'));
    expect(again[0]).toMatchObject({ id: S(50), title: 't50', agent: 'claude', state: 'working' });
    expect(again).toHaveLength(MAX_SESSIONS);
  });
  it('facts learnt later change known sessions in place and add none', () => {
    let data = withUsedSession({}, H('default'), { id: S(1), state: 'working' }, new Date(NOW));
    data = withUsedSession(data, H('default'), { id: S(2) }, new Date(NOW + 1));
    data = withSessionFacts(data, H('default'), [
      { id: S(1), state: 'finished', title: 'now titled' },
      { id: S(3), state: 'gone' },
    ]);
    const list = knownSessions(data, H('default'));
    expect(list.map((s) => s.id)).toEqual([S(2), S(1)]);
    expect(list[1]).toMatchObject({ state: 'finished', title: 'now titled' });
  });
  it('malformed entries are dropped, not fatal', () => {
    const data = {
      sessions: {
        default: [
          { id: 'nope' },
          5,
          null,
          { id: S(1), state: 'exploded', title: 7, usedAt: 'x' },
          { id: S(1) },
        ],
        other: 'not a list',
      },
    };
    expect(knownSessions(data, H('default'))).toEqual([{ id: S(1), usedAt: 'x' }]);
    expect(knownSessions(data, H('other'))).toEqual([]);
    expect(knownSessions({ sessions: [] }, H('default'))).toEqual([]);
  });
  it("kept per service: another base URL neither sees nor pushes them out; an entry with none is the profile's", () => {
    const here = H('default', 'https://agents.example');
    const emulator = H('default', 'http://127.0.0.1:4010', 'https://agents.example');
    let data: Record<string, unknown> = {
      // Recorded before base URLs were: the profile's own service (the base URL it stores).
      sessions: { default: [{ id: S(9), usedAt: 'then' }] },
    };
    data = withUsedSession(data, here, { id: S(1) }, new Date(NOW));
    for (let i = 0; i < MAX_SESSIONS + 3; i++)
      data = withUsedSession(data, emulator, { id: S(100 + i) }, new Date(NOW));
    expect(knownSessions(data, here).map((s) => s.id)).toEqual([S(1), S(9)]);
    expect(knownSessions(data, here)[0]?.baseUrl).toBe('https://agents.example');
    const rehearsed = knownSessions(data, emulator);
    expect(rehearsed).toHaveLength(MAX_SESSIONS);
    expect(rehearsed.every((s) => s.baseUrl === 'http://127.0.0.1:4010')).toBe(true);
    // Facts learnt on one service change nothing of another's.
    data = withSessionFacts(data, emulator, [{ id: S(1), state: 'gone' }]);
    expect(knownSessions(data, here)[0]?.state).toBeUndefined();
    // A profile that stores no base URL: its old entries go with whichever the run uses.
    expect(
      knownSessions({ sessions: { default: [{ id: S(9) }] } }, H('default', 'http://x.example')).map(
        (s) => s.id,
      ),
    ).toEqual([S(9)]);
  });
});

const known: KnownSession[] = [
  {
    id: S(1),
    title: 'Fix the flaky\tparser test\n\u001b[2J',
    agent: 'claude',
    state: 'finished',
    createdAt: new Date(NOW - 120_000).toISOString(),
    usedAt: new Date(NOW).toISOString(),
  },
  { id: S(2), usedAt: '' },
];

describe('ls and the chooser', () => {
  it('a pipe gets one tab-separated line a session, empty fields where unknown', () => {
    expect(renderSessionsPlain(known)).toBe(
      `${S(1)}\tFix the flaky parser test [2J\tclaude\tfinished\t${known[0]!.createdAt}\n${S(2)}\t\t\t\t\n`,
    );
  });
  it('a terminal: title, then the id (never cut) and the facts, on one line when they fit', () => {
    const time = { now: NOW, timeZone: 'UTC' };
    const wide = renderSessions(known, { style: PLAIN, time, columns: 80 });
    expect(wide).toBe(
      `Fix the flaky parser test [2J\n  ${S(1)}  claude · finished · created 2 min ago\n(untitled)\n  ${S(2)}\n`,
    );
    const narrow = renderSessions(known, { style: PLAIN, time, columns: 40 });
    expect(narrow.split('\n')).toContain(`  ${S(1)}`);
    expect(narrow.split('\n')).toContain('  claude · finished · created 2 min ago');
    for (const l of narrow.split('\n')) expect(width(l)).toBeLessThanOrEqual(40);
  });
  it('the chooser shows one line a session and filters by every word typed', () => {
    const label = sessionChoiceLabel(known[0]!, { now: NOW, timeZone: 'UTC' }, 40);
    expect(width(label)).toBeLessThanOrEqual(40);
    expect(label.endsWith(' · 00000000')).toBe(true);
    const choices = [
      { id: S(1), label: 'Fix the flaky parser test · claude' },
      { id: S(2), label: 'Add a flag · codex' },
    ];
    expect(filterChoices(choices, 'FLAKY claude').map((c) => c.id)).toEqual([S(1)]);
    expect(filterChoices(choices, '000000000002').map((c) => c.id)).toEqual([S(2)]);
    expect(filterChoices(choices, undefined)).toHaveLength(2);
    expect(filterChoices(choices, 'gemini')).toEqual([]);
  });
});

const msg = (over: Partial<Message>): Message => ({
  id: 'm1',
  chat_id: 's1',
  chat_thread_id: 't1',
  task_id: 'k1',
  role: 'assistant',
  type: 'message',
  message: 'text',
  ts: 1,
  created_at: '2026-11-23T13:34:00.000Z',
  updated_at: '2026-11-23T13:34:00.000Z',
  ...over,
});

describe('the conversation on a terminal', () => {
  it('labels carry a local time (ids with --verbose); pipes keep the ISO text', () => {
    const e = classify(msg({ type: 'final_message', message: 'done' }));
    const tty = { tty: true, style: PLAIN, time: PARIS };
    expect(renderEntry(e, tty)).toBe('assistant (final) · 14:34\ndone\n');
    expect(renderEntry(e, { ...tty, verbose: true })).toBe('assistant (final) · 14:34 · m1\ndone\n');
    expect(renderEntry(e, { tty: false, style: PLAIN }, true)).toBe(
      'assistant (final) · 2026-11-23T13:34:00.000Z\ndone\n',
    );
  });
  it('turn headings leave the thread id out on a terminal unless --verbose', () => {
    const tty = { tty: true, style: PLAIN, time: PARIS };
    expect(renderTurnHeading('t1', 2, tty)).toBe('\n── turn 2 ──');
    expect(renderTurnHeading('t1', 2, { ...tty, verbose: true })).toBe('\n── turn 2 · thread t1 ──');
    expect(renderTurnHeading('t1', 2, { tty: false, style: PLAIN })).toBe('\n── turn 2 · thread t1 ──');
  });
  it('the latest turn is working until its final reply is shown', () => {
    const user = msg({ id: 'u', role: 'user' });
    const final = msg({ id: 'f', type: 'final_message' });
    const next = msg({ id: 'u2', role: 'user', chat_thread_id: 't2' });
    const state = (ms: Message[]) => latestTurnState(readConversation(ms).entries.map((e) => e.message));
    expect(state([user])).toBe('working');
    expect(state([user, final])).toBe('finished');
    expect(state([user, final, next])).toBe('working');
    expect(latestTurnState([])).toBeUndefined();
  });
});
