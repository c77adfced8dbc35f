import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDuration, parseDuration, MAX_DURATION_MS } from '../../src/util/duration.js';
import { isUuid } from '../../src/util/uuid.js';
import { parseSessionRef } from '../../src/cli/input/session-ref.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['20m', 1_200_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1.5m', 90_000],
    ['250ms', 250],
    ['45', 45_000],
    ['0.5', 500],
    [' 2m ', 120_000],
    ['7d', MAX_DURATION_MS],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '0', '0s', '-5s', '5 m', 'm', '1x', '1h-', 'abc', '8d', '1e3', 'NaN', 'Infinity', '5s5'])(
    'rejects %j',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );

  it('round-trips whole seconds through formatDuration', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 * 86_400 }), (s) => {
        expect(parseDuration(formatDuration(s * 1000))).toBe(s * 1000);
      }),
    );
  });

  it('never throws and never returns a value out of range', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const ms = parseDuration(text);
        if (ms !== undefined) expect(ms > 0 && ms <= MAX_DURATION_MS).toBe(true);
      }),
    );
  });
});

describe('parseSessionRef', () => {
  const id = '0b5e8f3c-1d2a-4c3b-9e8f-7a6b5c4d3e2f';
  it('accepts a UUID, lower-cased', () => {
    expect(parseSessionRef(id.toUpperCase())).toEqual({ kind: 'id', id });
  });
  it('accepts a dashboard address', () => {
    expect(parseSessionRef(`https://app.example.com/app/sessions/${id}`)).toEqual({ kind: 'id', id });
    expect(parseSessionRef(`https://app.example.com/app/sessions/${id}/?tab=1#x`)).toEqual({
      kind: 'id',
      id,
    });
  });
  it.each([
    ['a workspace segment', `https://app.example.com/app/acme/sessions/${id}`],
    ['a workspace named "sessions"', `https://app.example.com/app/sessions/sessions/${id}`],
    ['an API address', `https://x/sessions/${id}`],
    ['an API address under /rest/v1', `http://localhost:8080/rest/v1/sessions/${id.toUpperCase()}`],
    ['a path below the session', `https://x/app/sessions/${id}/messages`],
    ['a thread below the session', `https://x/rest/v1/sessions/${id}/threads/${id}/messages?type=message`],
  ])('accepts any http(s) address whose path holds /sessions/<uuid>: %s', (_what, text) => {
    expect(parseSessionRef(text)).toEqual({ kind: 'id', id });
  });
  it('accepts last', () => {
    expect(parseSessionRef('last')).toEqual({ kind: 'last' });
  });
  it.each([
    '',
    'latest',
    'LAST',
    `${id}x`,
    id.slice(0, 35),
    `ftp://x/app/sessions/${id}`,
    `https://x/app/sessions/not-a-uuid`,
    `https://x/app/sessions/not-a-uuid/${id}`,
    `https://x/app/sessions/${id}x`,
    `https://x/app/session/${id}`,
    `https://x/app/${id}`,
    `https://x/?session=${id}`,
    `https://x/app#/sessions/${id}`,
  ])('rejects %j', (text) => {
    expect(parseSessionRef(text)).toBeUndefined();
  });
  it('accepts every UUID and its dashboard address (property)', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.webUrl(), (u, base) => {
        expect(parseSessionRef(u)).toEqual({ kind: 'id', id: u.toLowerCase() });
        const url = new URL(base);
        url.pathname = `/app/sessions/${u}`;
        expect(parseSessionRef(url.toString())).toEqual({ kind: 'id', id: u.toLowerCase() });
      }),
    );
  });
  it('never accepts a string that is neither (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const ref = parseSessionRef(text);
        if (ref?.kind === 'id') expect(isUuid(ref.id)).toBe(true);
        if (ref?.kind === 'last') expect(text.trim()).toBe('last');
      }),
    );
  });
});
