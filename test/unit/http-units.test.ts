// Pure pieces of the HTTP layer: backoff maths, Retry-After, body summaries, network error mapping.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, backoffDelay, parseRetryAfter } from '../../src/core/api/backoff.js';
import { errorFromNetwork } from '../../src/core/api/response.js';
import { summariseBody } from '../../src/core/api/errors.js';
import { flatten } from '../../src/util/text.js';

const figures = { connectTimeoutMs: 10_000, responseTimeoutMs: 30_000 };

describe('backoffDelay', () => {
  const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };

  it('full jitter: from 0 up to a ceiling that doubles per retry and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 9].map((r) => backoffDelay(r, options, {}, () => 0.999999))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoffDelay(3, options, {}, () => 0)).toBe(0);
  });

  it('a 429 waits at least half the ceiling, or what Retry-After asks within its own cap', () => {
    expect(backoffDelay(3, options, { rateLimited: true }, () => 0)).toBe(200);
    expect(backoffDelay(1, options, { rateLimited: true, retryAfterS: 0.5 }, () => 0)).toBe(500);
    // Retry-After may ask for more than our own longest wait (maxDelayMs), up to maxRetryAfterMs (60 s).
    expect(options.maxRetryAfterMs).toBe(60_000);
    expect(backoffDelay(1, options, { rateLimited: true, retryAfterS: 45 }, () => 0)).toBe(45_000);
    expect(backoffDelay(1, options, { rateLimited: true, retryAfterS: 120 }, () => 0)).toBe(60_000);
    expect(backoffDelay(1, { ...options, maxRetryAfterMs: 1000 }, { retryAfterS: 120 }, () => 0)).toBe(1000);
    // A 503 carries no rate-limit floor, but its Retry-After counts the same.
    expect(backoffDelay(2, options, { retryAfterS: 3 }, () => 0)).toBe(3000);
  });

  it('a 429 without Retry-After keeps doubling past our own cap, up to the window a service may ask for', () => {
    // maxDelayMs is 1 s here: a 5xx stops there, a 429 goes on to 12.8 s and stops at maxRetryAfterMs.
    expect(backoffDelay(9, options, {}, () => 0.999999)).toBe(1000);
    expect(backoffDelay(9, options, { rateLimited: true }, () => 0)).toBe(12_800);
    expect(backoffDelay(20, options, { rateLimited: true }, () => 0.999999)).toBe(60_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('summariseBody', () => {
  it('takes the error text and code of a JSON body, flat or nested', () => {
    expect(summariseBody('{"error":"Session not found","code":"NOT_FOUND"}', 'application/json')).toEqual({
      serverMessage: 'Session not found',
      code: 'NOT_FOUND',
      summary: '',
    });
    expect(summariseBody('{"error":{"message":"bad\\nthing","code":"VALIDATION"}}', undefined)).toMatchObject(
      {
        serverMessage: 'bad thing',
        code: 'VALIDATION',
      },
    );
  });

  it('reduces HTML to its title, and other text to one capped line', () => {
    expect(summariseBody('<html><title>\n 502 <b>Bad</b> Gateway </title>…', 'text/html').summary).toBe(
      'HTML page "502 Bad Gateway"',
    );
    expect(summariseBody('<!DOCTYPE html><p>no title</p>', undefined).summary).toBe('HTML page');
    expect(summariseBody(`line one\n\u001b[2Jline two ${'z'.repeat(400)}`, 'text/plain').summary).toMatch(
      /^line one \[2Jline two z+…$/,
    );
    expect(flatten('x'.repeat(300)).length).toBe(200);
  });
});

describe('errorFromNetwork', () => {
  const origin = 'https://api.example.com';
  const sys = (code: string) => Object.assign(new Error(`boom ${code}`), { code });

  it.each([
    ['ECONNREFUSED', 'connection', true, true],
    ['ENOTFOUND', 'connection', true, true],
    ['EAI_AGAIN', 'connection', true, true],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout', true, true],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout', false, true],
    ['UND_ERR_BODY_TIMEOUT', 'timeout', false, true],
    ['ECONNRESET', 'connection', false, true],
    ['UND_ERR_SOCKET', 'connection', false, true],
    ['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'unreadable', false, true],
    ['HPE_INVALID_CONSTANT', 'unreadable', false, true],
    ['CERT_HAS_EXPIRED', 'connection', false, false],
  ] as const)('%s → %s (never sent: %s, transient: %s)', (code, kind, neverSent, transient) => {
    const err = errorFromNetwork(sys(code), origin, figures);
    expect([err.kind, err.neverSent, err.transient]).toEqual([kind, neverSent, transient]);
    expect(err.message).toContain(origin);
  });

  it('looks inside AggregateError (happy eyeballs) for the code', () => {
    const err = errorFromNetwork(
      new AggregateError([sys('ECONNREFUSED'), sys('ECONNREFUSED')]),
      origin,
      figures,
    );
    expect(err.neverSent).toBe(true);
  });
});
