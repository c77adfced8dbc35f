// agents logout: forget the profile's key. The base URL and agent stay, so `agents login` can follow.
import type { Context } from '../context.js';
import { openConfig } from '../config/store.js';
import { ENV_VARS, resolveSettings } from '../config/settings.js';

/** What logout did. */
export interface LogoutResult {
  profile: string;
  /** False when the profile had no key (logout is idempotent). */
  removed: boolean;
}

export function runLogout(ctx: Context): LogoutResult {
  const store = openConfig(ctx.env);
  const { profile, sources } = resolveSettings(ctx.globals, ctx.env, store);
  const removed = store.get(profile, 'api-key') !== undefined;
  store.unset(profile, 'api-key');
  ctx.log.info(
    removed
      ? `Removed the API key of profile ${profile}`
      : `Profile ${profile} has no stored API key; nothing to do`,
  );
  if (sources.apiKey === 'env') {
    ctx.log.warn(`${ENV_VARS.apiKey} is still set in this environment; unset it to log out completely`);
  }
  return { profile, removed };
}
