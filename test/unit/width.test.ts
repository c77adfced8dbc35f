// Terminal widths: plain ASCII takes the fast path, the rest goes through string-width; both must agree on
// what a terminal shows.
import { describe, expect, it } from 'vitest';
import { cut, width } from '../../src/util/width.js';

describe('width and cut', () => {
  it('counts wide characters and emoji as two columns, combining marks as none', () => {
    expect(width('hello')).toBe(5);
    expect(width('日本語')).toBe(6);
    expect(width('ok 👍')).toBe(5);
    expect(width('e\u0301')).toBe(1);
    expect(width('')).toBe(0);
  });

  it('cuts to the columns given, … included, never through a character', () => {
    expect(cut('hello world', 8)).toBe('hello w…');
    expect(cut('hello', 5)).toBe('hello');
    expect(cut('日本語のテキスト', 7)).toBe('日本語…');
    expect(width(cut('日本語のテキスト', 7))).toBeLessThanOrEqual(7);
    expect(cut('👍👍👍👍', 6)).toBe('👍👍…');
    expect(cut('anything', 0)).toBe('');
  });
});
