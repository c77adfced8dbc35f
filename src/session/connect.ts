// The one place a command gets its settings and an API client from.
import type { Context } from '../context.js';
import { ApiClient } from '../api/client.js';
import { requireConnection, resolveSettings, type Settings } from '../config/settings.js';

/** Settings for this run (flag > env > profile > default), read without loading conf. */
export function settingsFor(ctx: Context): Settings {
  return resolveSettings(ctx.globals, ctx.env);
}

/** An API client for these settings, or the CliError that says what is missing. */
export function clientFor(ctx: Context, settings: Settings): ApiClient {
  // The warning: a key about to travel over plain http to a host that is not loopback.
  const { baseUrl, apiKey } = requireConnection(settings, (w) => ctx.log.warn(w));
  return new ApiClient({
    baseUrl,
    apiKey,
    debug: ctx.log.debugEnabled ? (l) => ctx.log.debug(l) : undefined,
  });
}
