// The gateway before the service (API keys, per-key rate limit); its refusals are not the JSON error shape.
import type { IncomingHttpHeaders } from 'node:http';
import { htmlPage, json, type Reply } from './http.js';
import type { EmulatorKey, EmulatorOptions, EmulatorStats } from './surface.js';
import type { Dialect } from './dialect.js';

/** Sliding-window log per key: a request is allowed while fewer than `limit` fell in the last window. */
export class RateLimiter {
  private readonly log = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Seconds until a request of `key` would be allowed again (at least 1). */
  retryAfter(key: string, now = Date.now()): number {
    const times = this.log.get(key) ?? [];
    const oldest = times[times.length - this.limit];
    return Math.max(1, Math.ceil(((oldest ?? now) + this.windowMs - now) / 1000));
  }

  /** Counts this request, refused ones too (hammering keeps a client limited); capped against a flood. */
  take(key: string, now = Date.now()): boolean {
    const times = this.log.get(key) ?? [];
    let drop = 0;
    while (drop < times.length && (times[drop] ?? 0) <= now - this.windowMs) drop += 1;
    if (drop > 0) times.splice(0, drop);
    const allowed = times.length < this.limit;
    times.push(now);
    if (times.length > this.limit * 4) times.splice(0, times.length - this.limit * 4);
    this.log.set(key, times);
    return allowed;
  }
}

const SCHEME = /^ApiKey[ \t]+(\S+)[ \t]*$/i;

/** The gateway of these keys and limit: a request's key, or its refusal (a 429 counted in `stats`). */
export function gateway(keys: EmulatorKey[], rateLimit: EmulatorOptions['rateLimit'], dialect: Dialect) {
  const keyOf = new Map(keys.map((k) => [k.key, k]));
  const limit = rateLimit ?? { limit: 100, windowMs: 60_000 };
  const limiter = limit ? new RateLimiter(limit.limit, limit.windowMs) : undefined;
  return (headers: IncomingHttpHeaders, stats: EmulatorStats): EmulatorKey | Reply => {
    const match = SCHEME.exec(headers.authorization ?? '');
    const key = match?.[1] === undefined ? undefined : keyOf.get(match[1]);
    if (!key) {
      if (match !== null && dialect.wrongKeyStatus === 403) return htmlPage(403, 'Forbidden');
      return htmlPage(401, 'Authorization Required', { 'www-authenticate': 'ApiKey' });
    }
    if (key.forbidden) return htmlPage(403, 'Forbidden');
    if (limiter && !limiter.take(key.key)) {
      stats.rejected429 += 1;
      // The spec says no rate-limit headers are returned; the live service may say when to come back.
      const error = `Rate limit exceeded: ${limiter.limit} requests per ${limiter.windowMs} ms per API key`;
      const retry: Record<string, string> = dialect.retryAfter
        ? { 'retry-after': String(limiter.retryAfter(key.key)) }
        : {};
      return json(429, { error, code: 'RATE_LIMITED' }, retry);
    }
    return key;
  };
}
