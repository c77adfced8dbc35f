// The one place a command gets its settings and an API client from.
import type { Context } from '../context.js';
import { ApiClient } from '../api/client.js';
import { openConfig } from '../config/store.js';
import { requireConnection, resolveSettings, type Settings } from '../config/settings.js';

/** Settings for this run (flag > env > profile > default). */
export function settingsFor(ctx: Context): Settings {
  return resolveSettings(ctx.globals, ctx.env, openConfig(ctx.env));
}

/** An API client for these settings, or the CliError that says what is missing. */
export function clientFor(ctx: Context, settings: Settings): ApiClient {
  const { baseUrl, apiKey } = requireConnection(settings);
  return new ApiClient({
    baseUrl,
    apiKey,
    debug: ctx.log.debugEnabled ? (l) => ctx.log.debug(l) : undefined,
  });
}
