// Property tests for the parsers every bad input goes through first: durations, session references, base
// URLs and the other config values, commander's option parsers and the profile JSON. The rule they share:
// any string either parses to a valid value or is refused with the one error type that becomes exit 2,
// never another error, never NaN, Infinity or a negative number, and never a message of two lines.
// (test/unit/parsers.test.ts already covers whole-second round trips, "never throws" for parseDuration, and
// plain UUIDs and fc.webUrl dashboard addresses for parseSessionRef; they are not repeated here.)
// Session references: any http(s) address whose path holds /sessions/<uuid> (../shared/spec/cli-contract.md).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../../src/core/errors/cli-error.js';
import { MAX_DURATION_MS, formatDuration, parseDuration } from '../../src/util/duration.js';
import { isUuid } from '../../src/util/uuid.js';
import { parseSessionRef, sessionRefArg } from '../../src/cli/input/session-ref.js';
import { resolveSession } from '../../src/core/sessions/resolve.js';
import { openStateFile } from '../../src/core/state/state-file.js';
import { writeLastSession } from '../../src/core/state/last-session.js';
import {
  durationOption,
  intOption,
  uuidListOption,
  uuidOption,
} from '../../src/cli/commands/options/option-values.js';
import {
  CONFIG_KEYS,
  isLoopbackHost,
  validateAgent,
  validateApiKey,
  validateBaseUrl,
  validateConfigKey,
  validateConfigValue,
  validateProfileName,
} from '../../src/core/config/validators.js';
import { validateProfile } from '../../src/cli/input/agent.js';
import { CORE_AGENTS } from '../../src/core/api/types.js';

/**
 * Runs per property: 500 by default (2000 took 10 s of the suite's CPU), more for a deeper search with
 * AGENTS_TEST_PROPERTY_RUNS=N.
 */
const RUNS = Number(process.env.AGENTS_TEST_PROPERTY_RUNS ?? 500);
const run = <T>(prop: fc.IProperty<T> | fc.IAsyncProperty<T>) =>
  fc.assert(prop as fc.IProperty<T>, { numRuns: RUNS });

type ErrorType = typeof UsageError | typeof InvalidArgumentError;

/** A refusal must be `type`, with a one-line message and hint. */
function expectRefusal(err: unknown, type: ErrorType): void {
  expect(err).toBeInstanceOf(type);
  const e = err as Error & { hint?: string };
  expect(e.message).not.toMatch(/[\r\n]/);
  expect(e.message.length).toBeGreaterThan(0);
  if (e.hint !== undefined) expect(e.hint).not.toMatch(/[\r\n]/);
  if (err instanceof UsageError) expect(err.exitCode).toBe(2);
}

/** Either the value, or the error it threw: which must be `type`, with a one-line message and hint. */
function outcome<T>(fn: () => T, type: ErrorType): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    expectRefusal(err, type);
    return { ok: false };
  }
}

/** outcome() for a parser that resolves. */
async function outcomeOf<T>(
  fn: () => Promise<T>,
  type: ErrorType,
): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    expectRefusal(err, type);
    return { ok: false };
  }
}

// ── Arbitrary text: plain, full Unicode (lone surrogates included), and strings near each grammar ──
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\n',
    '\t',
    '\u0000',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '__proto__',
    'constructor',
  ),
);
const durationish = fc.oneof(
  anyText,
  fc.stringMatching(/^\s?[-+]?[0-9.eE]{0,8}(ms|s|m|h|d|x|MS|H)?([0-9.]{0,4}(ms|s|m|h|d)?){0,3}\s?$/),
);
const numberish = fc.oneof(
  anyText,
  fc.stringMatching(/^\s?[-+]?[0-9]{0,12}([.eE][-+]?[0-9]{0,3})?\s?$/),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
);
const urlish = fc.oneof(
  anyText,
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl({ authoritySettings: { withUserInfo: true, withPort: true } }),
  fc.stringMatching(/^[a-zA-Z+.-]{0,6}:\/{0,3}[a-zA-Z0-9.:@[\]/?#%_~-]{0,40}$/),
);

// ── Hosts, paths and UUIDs for URLs that should parse ──
const loopbackHost = fc.oneof(
  fc.constant('localhost'),
  fc.domain().map((d) => `${d.split('.')[0] ?? 'x'}.localhost`),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `127.${a}.${b}.${c}`),
  fc.constant('[::1]'),
);
const remoteHost = fc.oneof(
  fc.domain().filter((d) => !/(^|\.)localhost$/i.test(d)),
  fc.ipV4().filter((ip) => !ip.startsWith('127.')),
);
const anyHost = fc.oneof(
  loopbackHost,
  remoteHost,
  fc.ipV6().map((ip) => `[${ip}]`),
);
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
const segment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,10}$/);
const prefix = fc.array(segment, { maxLength: 3 }).map((s) => s.map((x) => `/${x}`).join(''));
const mixedUuid = fc.uuid().chain((u) => fc.mixedCase(fc.constant(u)));
const scheme = fc.constantFrom('http', 'https', 'HTTP', 'Https');

describe('durations (src/util/duration.ts, durationOption)', () => {
  it('any text: durationOption gives a whole number of ms in (0, 7 days], or InvalidArgumentError', () => {
    run(
      fc.property(durationish, (text) => {
        const r = outcome(() => durationOption(text), InvalidArgumentError);
        if (r.ok) {
          expect(Number.isInteger(r.value)).toBe(true);
          expect(r.value).toBeGreaterThan(0);
          expect(r.value).toBeLessThanOrEqual(MAX_DURATION_MS);
        }
        // The option parser and the pure parser agree.
        expect(r.ok ? r.value : undefined).toBe(parseDuration(text));
      }),
    );
  });

  // A model of the grammar: a sequence of NUMBER UNIT parts, in any case, with blanks around it.
  const UNIT = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
  const part = fc.record({
    n: fc.oneof(
      fc.nat(5000),
      fc.double({ min: 0, max: 500, noNaN: true }).map((x) => Math.round(x * 100) / 100),
    ),
    unit: fc.constantFrom(...(Object.keys(UNIT) as (keyof typeof UNIT)[])),
    upper: fc.boolean(),
  });
  it('NUMBER UNIT sequences parse to the sum of their parts (when in range)', () => {
    run(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('', ' ', '\t', '  \n'),
        (parts, pad) => {
          const text =
            pad + parts.map((p) => `${p.n}${p.upper ? p.unit.toUpperCase() : p.unit}`).join('') + pad;
          const expected = Math.round(parts.reduce((sum, p) => sum + p.n * UNIT[p.unit], 0));
          const inRange = expected > 0 && expected <= MAX_DURATION_MS;
          expect(parseDuration(text)).toBe(inRange ? expected : undefined);
        },
      ),
    );
  });

  it('plain decimal numbers are seconds', () => {
    run(
      fc.property(fc.nat(700_000), fc.option(fc.nat(999), { nil: undefined }), (whole, frac) => {
        const text = frac === undefined ? `${whole}` : `${whole}.${frac}`;
        const ms = Math.round(Number(text) * 1000);
        expect(parseDuration(text)).toBe(ms > 0 && ms <= MAX_DURATION_MS ? ms : undefined);
      }),
    );
  });

  it('concatenating two durations adds them (up to the 7-day cap)', () => {
    const whole = fc.record({
      n: fc.integer({ min: 1, max: 168 }),
      unit: fc.constantFrom('ms', 's', 'm', 'h'),
    });
    run(
      fc.property(whole, whole, (a, b) => {
        const pa = parseDuration(`${a.n}${a.unit}`);
        const pb = parseDuration(`${b.n}${b.unit}`);
        expect(pa).toBeDefined();
        expect(pb).toBeDefined();
        const sum = (pa ?? 0) + (pb ?? 0);
        expect(parseDuration(`${a.n}${a.unit}${b.n}${b.unit}`)).toBe(
          sum <= MAX_DURATION_MS ? sum : undefined,
        );
      }),
    );
  });

  it('formatDuration writes the grammar back, to the millisecond below 1 s and to the second above', () => {
    run(
      fc.property(fc.integer({ min: 1, max: MAX_DURATION_MS }), (ms) => {
        const text = formatDuration(ms);
        expect(text).toMatch(/^(\d+ms|(\d+h)?(\d+m)?(\d+s)?)$/);
        const back = parseDuration(text);
        if (ms < 1000) expect(back).toBe(ms);
        else expect(Math.abs((back ?? Number.NaN) - ms)).toBeLessThanOrEqual(500);
        // A fixed point after one trip.
        expect(formatDuration(back ?? 0)).toBe(text);
      }),
    );
  });
});

describe('integer options (intOption)', () => {
  const range = fc
    .tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }))
    .map(([a, b]) => (a <= b ? ([a, b] as const) : ([b, a] as const)));
  it('any text gives a whole number within [min, max], or InvalidArgumentError', () => {
    run(
      fc.property(range, numberish, ([min, max], text) => {
        const r = outcome(() => intOption(min, max)(text), InvalidArgumentError);
        if (r.ok) {
          expect(Number.isSafeInteger(r.value)).toBe(true);
          expect(r.value).toBeGreaterThanOrEqual(min);
          expect(r.value).toBeLessThanOrEqual(max);
          expect(Object.is(r.value, -0)).toBe(false);
          // Only plain digits are taken: no sign, fraction, exponent or hex read as something else.
          expect(text.trim()).toMatch(/^\d+$/);
          expect(r.value).toBe(Number(text.trim()));
        }
      }),
    );
  });
  it('every whole number in range is accepted as written (blanks around it too), every other refused', () => {
    run(
      fc.property(
        range,
        fc.integer({ min: -10, max: 1_000_010 }),
        fc.constantFrom('', ' '),
        ([min, max], n, pad) => {
          const r = outcome(() => intOption(min, max)(`${pad}${n}${pad}`), InvalidArgumentError);
          expect(r).toEqual(n >= min && n <= max ? { ok: true, value: n } : { ok: false });
        },
      ),
    );
  });
});

describe('UUID options (uuidOption, uuidListOption)', () => {
  it('any text gives a lower-case UUID, or InvalidArgumentError', () => {
    run(
      fc.property(
        fc.oneof(
          anyText,
          mixedUuid,
          mixedUuid.map((u) => ` ${u}`),
          fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF-'), minLength: 32, maxLength: 36 }),
        ),
        (text) => {
          const r = outcome(() => uuidOption(text), InvalidArgumentError);
          if (r.ok) {
            expect(isUuid(r.value)).toBe(true);
            expect(r.value).toBe(text.toLowerCase());
          }
        },
      ),
    );
  });
  it('a UUID in any case is accepted, lower-cased; repeated --artifact keeps them all, in order', () => {
    run(
      fc.property(fc.array(mixedUuid, { minLength: 1, maxLength: 5 }), (ids) => {
        const list = ids.reduce<string[] | undefined>((prev, id) => uuidListOption(id, prev), undefined);
        expect(list).toEqual(ids.map((u) => u.toLowerCase()));
      }),
    );
  });
});

describe('session references (parseSessionRef, sessionRefArg, resolveSession)', () => {
  // No "last" recorded here: `last` must be refused too, as a usage error.
  const state = openStateFile(
    { AGENTS_STATE_DIR: mkdtempSync(join(tmpdir(), 'agents-prop-state-')) },
    process.platform,
  );
  // Path segments of every kind, "sessions" itself included (a workspace may be called that).
  const anySegment = fc.oneof(segment, fc.constantFrom('app', 'sessions', 'rest', 'v1', 'threads'));
  const anyPath = fc.array(anySegment, { maxLength: 3 }).map((s) => s.map((x) => `/${x}`).join(''));
  // Where a session's address may put /sessions/<id>: the dashboard with or without a workspace, the API.
  const before = fc.oneof(
    fc.constantFrom('', '/app', '/rest/v1'),
    segment.map((ws) => `/app/${ws}`),
  );
  const below = fc.oneof(
    fc.constantFrom('', '/', '/messages', '/messages/'),
    fc.tuple(anyPath, fc.uuid()).map(([p, u]) => `${p}/threads/${u}/messages`),
  );
  const refish = fc.oneof(
    anyText,
    mixedUuid,
    fc.tuple(scheme, anyHost, prefix, mixedUuid).map(([s, h, p, u]) => `${s}://${h}${p}/app/sessions/${u}`),
    fc
      .tuple(scheme, anyHost, anyPath, mixedUuid, anyPath)
      .map(([s, h, p, u, q]) => `${s}://${h}${p}/sessions/${u}${q}`),
    fc.constantFrom('last', 'LAST', ' last ', 'last\n'),
  );
  it('any text resolves to a lower-case UUID, or a UsageError naming the forms', async () => {
    await fc.assert(
      fc.asyncProperty(refish, async (text) => {
        const r = await outcomeOf(
          () =>
            resolveSession(sessionRefArg(text), {
              state,
              profile: 'default',
              baseUrl: undefined,
              legacyBaseUrl: undefined,
            }),
          UsageError,
        );
        if (r.ok) {
          expect(isUuid(r.value.id)).toBe(true);
          expect(r.value.id).toBe(r.value.id.toLowerCase());
          expect(parseSessionRef(text)).toEqual({ kind: 'id', id: r.value.id });
        } else if (parseSessionRef(text) === undefined) {
          // Not a reference at all: the hint names the three forms.
          let hint: string | undefined;
          try {
            sessionRefArg(text);
          } catch (err) {
            expectRefusal(err, UsageError);
            hint = (err as UsageError).hint;
          }
          expect(hint).toMatch(/UUID.*\/sessions\/<id>.*"last"/);
        } else {
          // "last", with nothing recorded for the profile.
          expect(parseSessionRef(text)).toEqual({ kind: 'last' });
        }
      }),
      { numRuns: RUNS },
    );
  });
  it('an address with any scheme case, host, port, path before and below /sessions/<uuid>, slash, query or fragment gives the lower-case id', () => {
    run(
      fc.property(
        scheme,
        anyHost,
        port,
        fc.tuple(anyPath, before).map(([a, b]) => `${a}${b}`),
        mixedUuid,
        below,
        fc.constantFrom('', '?tab=messages', '?a=1&b=%20', '#thread', `?session=${'0'.repeat(8)}`),
        fc.constantFrom('', ' ', '\t'),
        (s, host, p, pre, u, tail, query, pad) => {
          const url = `${pad}${s}://${host}${p === undefined ? '' : `:${p}`}${pre}/sessions/${u}${tail}${query}${pad}`;
          expect(parseSessionRef(url)).toEqual({ kind: 'id', id: u.toLowerCase() });
          expect(sessionRefArg(url)).toEqual({ kind: 'id', id: u.toLowerCase() });
        },
      ),
    );
  });
  it('an address whose segment after /sessions/ is not a UUID is refused, whatever follows it', () => {
    run(
      fc.property(
        anyHost,
        prefix,
        fc.uuid(),
        fc.integer({ min: 0, max: 35 }),
        fc.constantFrom('g', 'z', '-', '_', '%41', ''),
        fc.constantFrom('', '/', '/messages', '/x/y'),
        (host, pre, u, at, ch, tail) => {
          const broken = `${u.slice(0, at)}${ch}${u.slice(at + 1)}`;
          fc.pre(!isUuid(broken));
          const text = `https://${host}${pre}/app/sessions/${broken}${tail}`;
          expect(parseSessionRef(text)).toBeUndefined();
          expect(outcome(() => sessionRefArg(text), UsageError).ok).toBe(false);
        },
      ),
    );
  });
  it('an address without a /sessions/<uuid> pair is refused, even with a UUID elsewhere in it', () => {
    run(
      fc.property(
        anyHost,
        anyPath,
        mixedUuid,
        fc.constantFrom('/session/', '/sessions', '/sessions/x/', '/', '?id=', '#/sessions/'),
        (host, pre, u, joint) => {
          fc.pre(!/\/sessions$/.test(pre) || !joint.startsWith('/'));
          expect(parseSessionRef(`https://${host}${pre}${joint}${u}`)).toBeUndefined();
        },
      ),
    );
  });
  it('only http and https addresses count', () => {
    run(
      fc.property(
        fc.constantFrom('ftp', 'file', 'ws', 'javascript', 'data', 'agents'),
        anyHost,
        mixedUuid,
        (s, host, u) => {
          expect(parseSessionRef(`${s}://${host}/app/sessions/${u}`)).toBeUndefined();
        },
      ),
    );
  });
  it('"last" is what was recorded for the profile, and refused (exit 2) when the state file cannot be written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agents-prop-last-'));
    const recorded = openStateFile({ AGENTS_STATE_DIR: dir }, process.platform);
    const profile = fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/);
    await fc.assert(
      fc.asyncProperty(
        profile,
        fc.uuid(),
        fc.option(fc.uuid(), { nil: undefined }),
        async (name, id, threadId) => {
          const history = {
            state: recorded,
            profile: name,
            baseUrl: 'https://agents.example',
            legacyBaseUrl: undefined,
          };
          await writeLastSession(history, { id, threadId });
          const got = await resolveSession({ kind: 'last' }, history);
          expect(got.id).toBe(id.toLowerCase());
          expect(got.last?.threadId).toBe(threadId);
          // A state file that cannot be written may hold an older session than the one just used.
          const readOnly = { ...history, state: { ...recorded, writable: () => false } };
          const r = await outcomeOf(() => resolveSession({ kind: 'last' }, readOnly), UsageError);
          expect(r.ok).toBe(false);
          // An id needs no state file at all.
          expect(await resolveSession({ kind: 'id', id }, readOnly)).toEqual({ id });
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('base URLs (validateBaseUrl)', () => {
  it('any text gives a normalized http(s) URL, or a UsageError', () => {
    run(
      fc.property(urlish, (text) => {
        const r = outcome(() => validateBaseUrl(text), UsageError);
        if (!r.ok) return;
        const { value } = r.value;
        const url = new URL(value);
        expect(['http:', 'https:']).toContain(url.protocol);
        expect(`${url.origin}${url.pathname.replace(/\/$/, '')}`).toBe(value);
        expect(value).not.toMatch(/[?#\s]|\/$/);
        expect(value).not.toMatch(/\/rest\/v1$/i);
        expect(url.username + url.password).toBe('');
      }),
    );
  });
  it('normalizing is a fixed point: a normalized URL comes back unchanged', () => {
    run(
      fc.property(urlish, (text) => {
        const r = outcome(() => validateBaseUrl(text), UsageError);
        if (r.ok) expect(validateBaseUrl(r.value.value)).toEqual(r.value);
      }),
    );
  });
  it('scheme and host case, a default port and trailing slashes do not change the value', () => {
    run(
      fc.property(
        fc.constantFrom('http', 'https'),
        anyHost,
        prefix,
        fc.constantFrom('', '/', '//'),
        (s, host, pre, slash) => {
          const plain = validateBaseUrl(`${s}://${host}${pre}`).value;
          const defaultPort = s === 'https' ? 443 : 80;
          const noisy = `${s.toUpperCase()}://${host.toUpperCase()}:${defaultPort}${pre}${slash}`;
          expect(validateBaseUrl(noisy).value).toBe(plain);
        },
      ),
    );
  });
  it('/rest/v1 at the end, in any case, with or without a slash, is refused', () => {
    run(
      fc.property(
        scheme,
        anyHost,
        port,
        prefix,
        fc.mixedCase(fc.constant('/rest/v1')),
        fc.constantFrom('', '/'),
        (s, host, p, pre, rest, slash) => {
          const text = `${s}://${host}${p === undefined ? '' : `:${p}`}${pre}${rest}${slash}`;
          expect(outcome(() => validateBaseUrl(text), UsageError).ok).toBe(false);
        },
      ),
    );
  });
  it('credentials, a query or a fragment are refused, and the message never shows the password', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{8,20}$/);
    run(
      fc.property(
        scheme,
        anyHost,
        prefix,
        secret,
        fc.constantFrom('user', 'pass', 'query', 'hash', 'empty-query'),
        (s, host, pre, pw, kind) => {
          const text = {
            user: `${s}://admin:${pw}@${host}${pre}`,
            pass: `${s}://:${pw}@${host}${pre}`,
            query: `${s}://${host}${pre}?key=${pw}`,
            hash: `${s}://${host}${pre}#${pw}`,
            'empty-query': `${s}://${host}${pre}?`,
          }[kind];
          try {
            validateBaseUrl(text);
            expect.unreachable(`accepted ${text}`);
          } catch (err) {
            expect(err).toBeInstanceOf(UsageError);
            const e = err as UsageError;
            expect(`${e.message} ${e.hint ?? ''}`).not.toContain(pw);
          }
        },
      ),
    );
  });
  it('warns about a key in clear text exactly for http:// to a host that is not loopback', () => {
    run(
      fc.property(
        fc.constantFrom('http', 'https'),
        fc.boolean(),
        loopbackHost,
        remoteHost,
        port,
        (s, local, lh, rh, p) => {
          const host = local ? lh : rh;
          const { value, warning } = validateBaseUrl(`${s}://${host}${p === undefined ? '' : `:${p}`}`);
          expect(isLoopbackHost(new URL(value).hostname)).toBe(local);
          expect(warning !== undefined).toBe(s === 'http' && !local);
        },
      ),
    );
  });
});

describe('the other config values (validate.ts)', () => {
  it('config keys: one of the three, or a UsageError', () => {
    run(
      fc.property(fc.oneof(anyText, fc.constantFrom(...CONFIG_KEYS)), (text) => {
        const r = outcome(() => validateConfigKey(text), UsageError);
        expect(r.ok).toBe((CONFIG_KEYS as readonly string[]).includes(text));
      }),
    );
  });
  it('agents: exactly the core agents, case and blanks matter', () => {
    run(
      fc.property(
        fc.oneof(
          anyText,
          fc.constantFrom(...CORE_AGENTS).chain((a) => fc.mixedCase(fc.constant(a))),
        ),
        (text) => {
          expect(outcome(() => validateAgent(text), UsageError).ok).toBe(
            (CORE_AGENTS as readonly string[]).includes(text),
          );
        },
      ),
    );
  });
  it('profile names: 1 to 64 of [A-Za-z0-9_-], never a name that reaches the prototype', () => {
    run(
      fc.property(
        fc.oneof(
          anyText,
          fc.stringMatching(/^[A-Za-z0-9_-]{0,70}$/),
          fc.constantFrom('__proto__', 'constructor', 'prototype'),
        ),
        (text) => {
          const r = outcome(() => validateProfileName(text), UsageError);
          const expected =
            /^[A-Za-z0-9_-]{1,64}$/.test(text) && !['__proto__', 'constructor', 'prototype'].includes(text);
          expect(r.ok).toBe(expected);
        },
      ),
    );
  });
  it('API keys: 1 to 4096 visible ASCII characters, and a refusal never shows the key', () => {
    run(
      fc.property(
        fc.oneof(
          anyText,
          fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 60 }),
          fc.stringMatching(/^[!-~]{1,40}$/),
        ),
        (text) => {
          let message = '';
          try {
            expect(validateApiKey(text)).toBe(text);
            expect(text).toMatch(/^[\x21-\x7e]{1,4096}$/);
          } catch (err) {
            if (!(err instanceof UsageError)) throw err;
            message = `${err.message} ${err.hint ?? ''}`;
            expect(/^[\x21-\x7e]{1,4096}$/.test(text)).toBe(false);
          }
          if (text.length >= 6) expect(message).not.toContain(text);
        },
      ),
    );
  });
  it('validateConfigValue: any key and text gives a value that validates again unchanged, or a UsageError', () => {
    run(
      fc.property(
        fc.constantFrom(...CONFIG_KEYS),
        fc.oneof(anyText, urlish, fc.constantFrom(...CORE_AGENTS)),
        (key, text) => {
          const r = outcome(() => validateConfigValue(key, text), UsageError);
          if (r.ok) expect(validateConfigValue(key, r.value.value).value).toBe(r.value.value);
        },
      ),
    );
  });
});

describe('profile JSON (validateProfile, for --agent-profile-file)', () => {
  const profileish = fc.oneof(
    fc.jsonValue(),
    fc.record(
      {
        id: fc.oneof(fc.uuid(), fc.string(), fc.integer(), fc.constant(null)),
        config_values: fc.oneof(
          fc.dictionary(fc.string(), fc.jsonValue()),
          fc.array(fc.jsonValue()),
          fc.string(),
        ),
        mcp_servers: fc.oneof(
          fc.array(fc.jsonValue()),
          fc.dictionary(fc.string(), fc.jsonValue()),
          fc.constant(null),
        ),
        config_merge_strategy: fc.oneof(fc.string(), fc.integer(), fc.boolean()),
        extra: fc.jsonValue(),
      },
      { requiredKeys: [] },
    ),
  );
  it('any JSON value gives a Profile of the documented shape, or a UsageError', () => {
    run(
      fc.property(profileish, (value) => {
        const r = outcome(() => validateProfile(value, '--agent-profile-file p.json'), UsageError);
        if (!r.ok) return;
        const p = r.value as Record<string, unknown>;
        expect(typeof p).toBe('object');
        expect(Object.keys(p).length).toBeGreaterThan(0);
        for (const k of Object.keys(p))
          expect(['id', 'config_values', 'mcp_servers', 'config_merge_strategy']).toContain(k);
        if (p.id !== undefined) expect(isUuid(p.id as string)).toBe(true);
        if (p.config_values !== undefined)
          expect(
            Array.isArray(p.config_values) || typeof p.config_values !== 'object' || p.config_values === null,
          ).toBe(false);
        if (p.mcp_servers !== undefined) expect(Array.isArray(p.mcp_servers)).toBe(true);
        if (p.config_merge_strategy !== undefined) expect(typeof p.config_merge_strategy).toBe('string');
      }),
    );
  });
});
