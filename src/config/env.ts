// The environment variables that are not settings of a profile: debugging and per-request time-outs. One
// parser each, so a value means the same thing wherever it is read.
import { UsageError } from '../errors.js';
import type { Env } from '../io.js';
import { parseDuration } from '../util/duration.js';

/** An environment switch: set, and not '', '0' or 'false'. */
export function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** AGENTS_DEBUG: any value but '', '0' and 'false' turns tracing (and stack traces) on, like --debug. */
export function debugFromEnv(env: Env): boolean {
  return truthy(env.AGENTS_DEBUG);
}

/**
 * Per-request time-outs, for slow networks and proxies: AGENTS_CONNECT_TIMEOUT (default 10 s) and
 * AGENTS_RESPONSE_TIMEOUT (default 30 s), as durations (`15s`, `2m`, or seconds). Unset or empty keeps the
 * client's default; anything else that is not a duration is a usage error.
 */
export function requestTimeouts(env: Env): { connectTimeoutMs?: number; responseTimeoutMs?: number } {
  const read = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const ms = parseDuration(raw);
    if (ms === undefined) {
      throw new UsageError(
        `${name}=${JSON.stringify(raw.slice(0, 40))} is not a duration`,
        'use e.g. 15s, 2m or a number of seconds',
      );
    }
    return ms;
  };
  return {
    connectTimeoutMs: read('AGENTS_CONNECT_TIMEOUT'),
    responseTimeoutMs: read('AGENTS_RESPONSE_TIMEOUT'),
  };
}

/**
 * AGENTS_SHARED_PACING: the request budget is shared with every agents process on the machine that uses
 * the same key unless this is '0' or 'false'. Off, each process paces itself alone, as before the budget
 * was shared: for benchmarks that measure what sharing gains, not for everyday use.
 */
export function sharedPacingFromEnv(env: Env): boolean {
  const raw = env.AGENTS_SHARED_PACING;
  return raw === undefined || raw === '' || truthy(raw);
}
