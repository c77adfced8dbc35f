// The one place a command gets its settings and an API client from.
import type { Context } from '../context.js';
import { ApiClient } from '../api/client.js';
import { requireConnection, resolveSettings, type Settings } from '../config/settings.js';
import { UsageError } from '../errors.js';
import { parseDuration } from '../util/duration.js';

/** Settings for this run (flag > env > profile > default), read without loading conf. */
export function settingsFor(ctx: Context): Settings {
  return resolveSettings(ctx.globals, ctx.env);
}

/**
 * Per-request time-outs from the environment, for slow networks and proxies: AGENTS_CONNECT_TIMEOUT
 * (default 10 s) and AGENTS_RESPONSE_TIMEOUT (default 30 s), as durations (`15s`, `2m`, or seconds).
 * Unset or empty keeps the client's default; anything else that is not a duration is a usage error.
 */
export function timeoutsFrom(env: NodeJS.ProcessEnv): {
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
} {
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

/** An API client for these settings, or the CliError that says what is missing. */
export function clientFor(ctx: Context, settings: Settings): ApiClient {
  // The warning: a key about to travel over plain http to a host that is not loopback.
  const { baseUrl, apiKey } = requireConnection(settings, (w) => ctx.log.warn(w));
  return new ApiClient({
    baseUrl,
    apiKey,
    ...timeoutsFrom(ctx.env),
    debug: ctx.log.debugEnabled ? (l) => ctx.log.debug(l) : undefined,
  });
}
