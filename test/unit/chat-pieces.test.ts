// The pure parts of `agents chat`, string in, string out: the input line's editing keys, the footer's
// layout (wrapping, the cursor, a terminal that reflows), the status line at any width, slash commands,
// the clipboard report, and what a resumed chat takes from the backlog.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/api/types.js';
import { LineEditor, type Key } from '../../src/cli/chat/input-line.js';
import { layoutFooter, reflowedCursorRow } from '../../src/cli/chat/footer.js';
import {
  INTERRUPT_QUESTION,
  activityOf,
  statusLine,
  type StatusInfo,
} from '../../src/cli/chat/status-line.js';
import { completeSlash, messageText, parseSlash } from '../../src/cli/chat/slash.js';
import { clipboardSupport, copyReport, osc52 } from '../../src/cli/chat/clipboard.js';
import { lastTurns, latestReply, runningTurn } from '../../src/cli/chat/backlog.js';
import { classify, readConversation } from '../../src/core/conversation/model.js';
import { PLAIN } from '../../src/cli/output/style.js';
import { width } from '../../src/util/width.js';

/** Types `keys` (one character each, or named keys in braces: {left}, {ctrl-a}, {alt-enter}…). */
function type(e: LineEditor, keys: string): string[] {
  const results: string[] = [];
  for (const [, named, ch] of keys.matchAll(/\{([a-z-]+)\}|(.)/gsu)) {
    let key: Key;
    let str: string | undefined;
    if (named) {
      const parts = named.split('-');
      const name = parts.at(-1)!;
      key = { name, ctrl: parts.includes('ctrl'), meta: parts.includes('alt') };
      if (name === 'enter') key.name = 'return';
    } else {
      str = ch!;
      key = { name: /^[a-z]$/.test(ch!) ? ch : undefined, sequence: ch };
    }
    results.push(e.press(str, key));
  }
  return results;
}

describe('the input line', () => {
  it('inserts, moves and deletes by character, word and line', () => {
    const e = new LineEditor();
    type(e, 'hello world');
    expect(e.text).toBe('hello world');
    type(e, '{ctrl-w}');
    expect(e.text).toBe('hello ');
    type(e, 'there{ctrl-a}>{ctrl-e}!');
    expect(e.text).toBe('>hello there!');
    type(e, '{left}{left}{backspace}');
    expect(e.text).toBe('>hello thee!');
    type(e, '{alt-b}{ctrl-k}');
    expect(e.text).toBe('>hello ');
    type(e, '{home}{delete}{ctrl-u}');
    expect(e.text).toBe('hello ');
  });

  it('moves over an emoji or an accented letter as one character', () => {
    const e = new LineEditor();
    e.insert('ok 👍🏽 é');
    type(e, '{left}{left}{backspace}');
    expect(e.text).toBe('ok  é');
  });

  it('Ctrl-C clears a line being typed, and on an empty line asks to leave', () => {
    const e = new LineEditor();
    type(e, 'draft');
    expect(type(e, '{ctrl-c}')).toEqual(['edit']);
    expect(e.text).toBe('');
    expect(type(e, '{ctrl-c}')).toEqual(['interrupt']);
  });

  it('Ctrl-D deletes forward, and on an empty line is the end of input', () => {
    const e = new LineEditor();
    type(e, 'ab{left}{ctrl-d}');
    expect(e.text).toBe('a');
    type(e, '{backspace}');
    expect(type(e, '{ctrl-d}')).toEqual(['eof']);
  });

  it('Enter sends the whole text; a trailing backslash or Alt-Enter starts a new line instead', () => {
    const e = new LineEditor();
    type(e, 'first\\');
    expect(type(e, '{enter}')).toEqual(['enter']);
    expect(e.enter()).toBeUndefined();
    type(e, 'second');
    type(e, '{alt-enter}third');
    expect(type(e, '{enter}')).toEqual(['enter']);
    expect(e.enter()).toBe('first\nsecond\nthird');
    expect(e.text).toBe('');
  });

  it('a backslash in the middle of the text is kept, and Enter sends', () => {
    const e = new LineEditor();
    type(e, 'a\\b');
    expect(e.enter()).toBe('a\\b');
  });

  it('Up and Down move between lines, then through what was sent, then back to the draft', () => {
    const e = new LineEditor();
    e.remember('one');
    e.remember('two');
    e.remember('two');
    type(e, 'draft');
    type(e, '{up}');
    expect(e.text).toBe('two');
    type(e, '{up}{up}');
    expect(e.text).toBe('one');
    type(e, '{down}{down}');
    expect(e.text).toBe('draft');
    e.set('ab\ncdef');
    type(e, '{up}');
    expect(e.cursor).toBe(2);
    type(e, '{down}');
    expect(e.cursor).toBe(5);
  });

  it('control characters typed with a key are not inserted', () => {
    const e = new LineEditor();
    e.press('\u001b[2J', { name: undefined, sequence: '\u001b[2J' });
    e.press('x', { name: 'x', meta: true });
    expect(e.text).toBe('');
  });
});

describe('the footer layout', () => {
  const prompt = { text: '› ', width: 2 };
  const layout = (text: string, cursor: number, columns: number, rows = 24) => {
    const e = new LineEditor();
    e.set(text);
    return layoutFooter({ status: 'status', text: e.graphemes, cursor, prompt, columns, rows });
  };

  it('puts the status line first and the prompt under it, the cursor after the text', () => {
    expect(layout('hi', 2, 40)).toMatchObject({ rows: ['status', '› hi'], cursorRow: 1, cursorCol: 4 });
  });

  it('wraps long text under the prompt, never writing the last column', () => {
    const text = 'x'.repeat(100);
    const l = layout(text, 100, 40);
    expect(l.rows.slice(1).every((r) => width(r) <= 39)).toBe(true);
    expect(l.rows.slice(1).join('').replace(/[› ]/g, '')).toBe(text);
    expect(l.rows[2]!.startsWith('  x')).toBe(true);
    expect(l.cursorRow).toBe(l.rows.length - 1);
  });

  it('wraps a wide character whole', () => {
    const l = layout('漢'.repeat(30), 30, 40);
    expect(l.rows.slice(1).every((r) => width(r) <= 39)).toBe(true);
  });

  it('shows line breaks as rows, tabs as spaces and control characters made visible', () => {
    const l = layout('a\nb\tc\u001b[2J', 0, 40);
    expect(l.rows).toEqual(['status', '› a', '  b  c^[[2J']);
    expect([l.cursorRow, l.cursorCol]).toEqual([1, 2]);
  });

  it('shows the rows around the cursor when the text is taller than the terminal', () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const l = layout(text, 0, 40, 10);
    expect(l.rows).toHaveLength(9);
    expect(l.rows[1]).toBe('› line 0');
    const end = layout(text, text.length, 40, 10);
    expect(end.rows.at(-1)).toBe('  line 29');
    expect(end.cursorRow).toBe(8);
  });

  it('knows where the cursor went when a terminal that reflows gets narrower', () => {
    const l = layout('abcdefghij', 10, 40);
    l.widths[0] = 35; // a status line of 35 columns
    // At 20 columns: the status takes 2 rows, the prompt row (12 wide) one, the cursor in it.
    expect(reflowedCursorRow(l, 20)).toBe(2);
    expect(reflowedCursorRow(l, 80)).toBe(1);
  });
});

describe('the status line', () => {
  const at = (s: Partial<StatusInfo>, columns = 80, now = 65_000) =>
    statusLine({ label: 'claude', phase: 'running', since: 0, ...s }, now, 0, columns, PLAIN);

  it('names the agent, the time and the latest activity', () => {
    expect(at({ activity: '⚙ Bash npm test' })).toBe('⠋ claude · 1m5s · ⚙ Bash npm test');
  });

  it('says when the service is failing', () => {
    expect(at({ activity: 'x', warning: 'service unavailable (503); still trying' })).toContain(
      '⚠ service unavailable (503); still trying',
    );
  });

  it('never takes more than the width less one column, at any width', () => {
    for (const columns of [20, 30, 40, 41, 80]) {
      for (const s of [
        { activity: '✎ ' + 'long '.repeat(40) },
        { warning: 'failing '.repeat(20) },
        { phase: 'idle' as const, tookMs: 3000 },
        { phase: 'new' as const },
        { confirming: true },
        { label: 'a session title that goes on and on and on' },
      ]) {
        expect(width(at(s, columns))).toBeLessThanOrEqual(columns - 1);
      }
    }
  });

  it('asks the interrupt question', () => {
    expect(at({ confirming: true })).toBe(INTERRUPT_QUESTION);
  });

  it('says how long the last turn took', () => {
    expect(at({ phase: 'idle', tookMs: 12_000 })).toBe('claude · done in 12s · /help');
  });

  it('takes the activity from tool calls and replies, on one harmless line', () => {
    const m = (type: Message['type'], message: string) =>
      classify({
        id: 'm',
        chat_id: 's',
        chat_thread_id: 't',
        task_id: 'k',
        role: 'assistant',
        type,
        message,
        ts: 1,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
      });
    expect(activityOf(m('tool_call', '{"__name__":"Bash","input":"npm\\ntest"}'))).toBe('⚙ Bash npm test');
    expect(activityOf(m('message', 'line one\n\u001b[2Jline two'))).toBe('✎ line one [2Jline two');
  });
});

describe('slash commands', () => {
  it.each([
    ['/help', { name: 'help' }],
    ['  /quit ', { name: 'quit' }],
    ['/exit', { name: 'quit' }],
    ['/new', { name: 'new' }],
    ['/new codex', { name: 'new', agent: 'codex' }],
    ['/save my reply.md', { name: 'save', file: 'my reply.md' }],
    ['/PLAN', { name: 'plan' }],
  ])('%s', (line, expected) => {
    expect(parseSlash(line)).toEqual(expected);
  });

  it('reports a command that is not one, or lacks its argument', () => {
    const error = (line: string) => {
      const c = parseSlash(line);
      return c?.name === 'error' ? c.text : undefined;
    };
    expect(error('/nope')).toBe('no command /nope; /help lists them (//nope sends it as a message)');
    expect(error('/save')).toBe('which file? /save FILE');
    expect(error('/new robot')).toContain('claude');
  });

  it('leaves messages alone; // sends a message that starts with /', () => {
    expect(parseSlash('hello /help')).toBeUndefined();
    expect(parseSlash('//etc/hosts is odd')).toBeUndefined();
    expect(messageText('//etc/hosts is odd')).toBe('/etc/hosts is odd');
    expect(messageText('plain')).toBe('plain');
  });

  it('completes a unique prefix', () => {
    expect(completeSlash('/pl')).toBe('/plan ');
    expect(completeSlash('/s')).toBeUndefined();
    expect(completeSlash('hello')).toBeUndefined();
  });
});

describe('the clipboard', () => {
  it('is an OSC 52 write of the text in base64', () => {
    expect(osc52('hé')).toBe(`\u001b]52;c;${Buffer.from('hé').toString('base64')}\u0007`);
  });

  it.each([
    [{ TERM: 'xterm-kitty' }, 'yes'],
    [{ TERM: 'xterm-256color', TERM_PROGRAM: 'iTerm.app' }, 'yes'],
    [{ TERM: 'xterm-256color', WT_SESSION: 'x' }, 'yes'],
    [{ TERM: 'screen', TMUX: '/tmp/tmux,1,0' }, 'tmux'],
    [{ TERM: 'xterm-256color', VTE_VERSION: '7000' }, 'no'],
    [{ TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' }, 'no'],
    [{ TERM: 'dumb' }, 'no'],
    [{ TERM: 'xterm-256color' }, 'unknown'],
  ])('%j: %s', (env, support) => {
    expect(clipboardSupport(env)).toBe(support);
  });

  it('says what happened, and refuses what terminals would cut', () => {
    expect(copyReport('yes', 10)).toEqual({ send: true, text: 'copied the last reply (10 bytes)' });
    expect(copyReport('no', 10).send).toBe(false);
    expect(copyReport('unknown', 10).send).toBe(true);
    expect(copyReport('unknown', 10).text).toContain('/save');
    expect(copyReport('tmux', 10).text).toContain('set-clipboard on');
    expect(copyReport('yes', 1_000_000).send).toBe(false);
    expect(copyReport('yes', 1_000_000).text).toContain('/save');
  });
});

describe('what a resumed chat takes from the backlog', () => {
  let n = 0;
  const m = (thread: string | null, role: Message['role'], type: Message['type'], message = `m${n}`) => {
    n += 1;
    const at = new Date(1_700_000_000_000 + n * 1000).toISOString();
    return {
      id: `id${n}`,
      chat_id: 's',
      chat_thread_id: thread,
      task_id: 'k',
      role,
      type,
      message,
      ts: n,
      created_at: at,
      updated_at: at,
    } satisfies Message;
  };

  it('keeps the last turns and the notices among them', () => {
    const all = [
      m('t1', 'user', 'message'),
      m('t1', 'assistant', 'final_message', 'one'),
      m(null, 'assistant', 'message', 'old notice'),
      m('t2', 'user', 'message'),
      m('t2', 'assistant', 'tool_call', '{"__name__":"Bash","input":"ls"}'),
      m('t2', 'assistant', 'message', 'two'),
      m('t2', 'assistant', 'final_message', 'two'),
      m(null, 'assistant', 'message', 'new notice'),
      m('t3', 'user', 'message'),
      m('t3', 'assistant', 'message', 'working'),
    ];
    const c = readConversation(all);
    const { conversation, cut } = lastTurns(c, 2);
    expect(cut).toBe(true);
    expect(conversation.entries.map((e) => e.message.chat_thread_id)).toEqual(['t2', 't2', 't2', 't3', 't3']);
    expect(conversation.notices.map((e) => e.message.message)).toEqual(['new notice']);
    expect(runningTurn(c)).toEqual({ thread: 't3', since: Date.parse(all[8]!.created_at) });
    expect(latestReply(c)?.message).toBe('two');
    expect(lastTurns(c, 0).conversation.entries).toEqual([]);
  });

  it('a turn with its final is not running; with no reply at all, nothing is the last reply', () => {
    const done = readConversation([m('t1', 'user', 'message'), m('t1', 'assistant', 'final_message', 'x')]);
    expect(runningTurn(done)).toBeUndefined();
    expect(latestReply(readConversation([m('t1', 'user', 'message')]))).toBeUndefined();
    expect(runningTurn(readConversation([]))).toBeUndefined();
  });
});
