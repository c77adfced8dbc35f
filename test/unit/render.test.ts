import { describe, expect, it } from 'vitest';
import { jsonText, neutralize } from '../../src/util/text.js';
import { renderEntry, serviceText } from '../../src/cli/output/render-conversation.js';
import { classify } from '../../src/core/conversation/model.js';
import { PLAIN } from '../../src/cli/output/style.js';
import type { Message } from '../../src/core/api/types.js';

const msg = (text: string): Message => ({
  id: 'm1',
  chat_id: 's1',
  chat_thread_id: 't1',
  task_id: 'k1',
  role: 'assistant',
  type: 'final_message',
  message: text,
  ts: 1,
  created_at: '2026-11-23T09:00:00.000Z',
  updated_at: '2026-11-23T09:00:00.000Z',
});

describe('neutralize', () => {
  it.each([
    ['clear screen', '\u001b[2J\u001b[H', '^[[2J^[[H'],
    ['OSC 52 clipboard write', '\u001b]52;c;ZXZpbA==\u0007', '^[]52;c;ZXZpbA==^G'],
    ['title change', '\u001b]0;pwned\u001b\\', '^[]0;pwned^[\\'],
    ['carriage return overwrite', 'safe\rEVIL', 'safe^MEVIL'],
    ['C1 CSI', '\u009b2J', '\\u{9b}2J'],
    ['bidi override', 'a\u202eb', 'a\\u{202e}b'],
    ['backspace', 'ab\bc', 'ab^Hc'],
    ['DEL', 'a\u007f', 'a^?'],
  ])('%s', (_name, input, expected) => {
    expect(neutralize(input)).toBe(expected);
  });
  it('keeps newlines, tabs and ordinary Unicode', () => {
    expect(neutralize('a\n\tb é 漢 🙂\r\n')).toBe('a\n\tb é 漢 🙂\n');
  });
  it('leaves no ESC, BEL or C1 character behind (property-like sweep)', () => {
    let all = '';
    for (let c = 0; c < 0xa0; c += 1) all += String.fromCharCode(c);
    const out = neutralize(all);
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('jsonText', () => {
  it('escapes what JSON.stringify leaves raw (DEL, C1, bidi) and nothing else: the same value when read', () => {
    let all = '';
    for (let c = 0; c < 0x2070; c += 1) all += String.fromCharCode(c);
    const value = { id: all, n: [1, null], s: 'é 漢 🙂' };
    const text = jsonText(value);
    // eslint-disable-next-line no-control-regex -- no character a terminal acts on stays raw
    expect(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text)).toBe(false);
    expect(JSON.parse(text)).toEqual(value);
    expect(jsonText({ id: 'y\u009b2J' })).toBe('{"id":"y\\u009b2J"}');
    expect(jsonText('é 漢 🙂')).toBe(JSON.stringify('é 漢 🙂'));
    expect(jsonText([{ a: 1 }], 2)).toBe(JSON.stringify([{ a: 1 }], null, 2));
  });
});

describe('serviceText and renderEntry', () => {
  it('passes text through unchanged when not on a terminal', () => {
    const hostile = '\u001b[2Jhello\u0007';
    expect(serviceText(hostile, { tty: false })).toBe(hostile);
    expect(serviceText(hostile, { tty: true })).toBe('^[[2Jhello^G');
  });
  it('labels the final message and ends with a newline', () => {
    expect(renderEntry(classify(msg('done')), { tty: true, style: PLAIN })).toBe(
      'assistant (final) · 2026-11-23T09:00:00.000Z\ndone\n',
    );
  });
});
