// agents logout: forget the profile's key. The base URL and agent stay, so `agents login` can follow.
import type { Context } from '../../run/context.js';
import { ENV_VARS, fromEnv } from '../../../core/config/settings.js';
import type { Item } from '../../output/items.js';

export async function* logout(ctx: Context): AsyncGenerator<Item> {
  const profile = ctx.profile();
  const removed = await ctx.config.unset(profile, 'api-key');
  yield {
    kind: 'note',
    text: removed
      ? `Removed the API key of profile ${profile}`
      : `Profile ${profile} has no stored API key; nothing to do`,
  };
  if (fromEnv(ctx.io.env, ENV_VARS.apiKey) !== undefined) {
    yield {
      kind: 'warning',
      text: `${ENV_VARS.apiKey} is still set in this environment; unset it to log out completely`,
    };
  }
}
