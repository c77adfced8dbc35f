import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { maskKey } from '../../src/core/config/mask.js';

/** How many characters of the key a mask shows: all but the ellipsis, or none for `****`. */
function revealed(mask: string): number {
  return mask === '****' ? 0 : [...mask].length - 1;
}

describe('maskKey', () => {
  it('shows a short prefix and the last 4 of a long key', () => {
    expect(maskKey('sk-abcdefghijklmnopqrstuvwxyz1234')).toBe('sk-a…1234');
    expect(maskKey('agents-dev-key')).toBe('ag…-key');
  });

  it('shows at most the last 2 of a key of 12 characters or fewer, nothing of a very short one', () => {
    expect(maskKey('abcdefghijkl')).toBe('…kl');
    expect(maskKey('abcdefg')).toBe('…fg');
    expect(maskKey('abcdef')).toBe('****');
    expect(maskKey('a')).toBe('****');
  });

  it('never reveals half of a key, nor more than 8 characters', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (key) => {
        const mask = maskKey(key);
        const n = [...key].length;
        expect(revealed(mask) * 2).toBeLessThan(n);
        expect(revealed(mask)).toBeLessThanOrEqual(8);
      }),
    );
  });
});
