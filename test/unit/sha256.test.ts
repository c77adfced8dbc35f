// util/sha256.ts: the request budget's hash of the key (its file name and Redis key) and its ids, without
// node:crypto. The digest must be node:crypto's byte for byte: a file named otherwise would split the
// machine's budget between this version and the others.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomHex, sha256Hex } from '../../src/util/sha256.js';

const nodeSha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('sha256Hex', () => {
  it("is node:crypto's SHA-256 at every length around a block's end, and of FIPS 180-4's examples", () => {
    for (let n = 0; n <= 130; n++) expect(sha256Hex('a'.repeat(n))).toBe(nodeSha256('a'.repeat(n)));
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it("is node:crypto's SHA-256 of any text, multi-byte UTF-8 included", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(sha256Hex(s)).toBe(nodeSha256(s));
      }),
      { numRuns: 100 },
    );
  });
});

describe('randomHex', () => {
  it('gives the bytes asked for as lowercase hex, a different id each time', () => {
    const ids = Array.from({ length: 200 }, () => randomHex(6));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
