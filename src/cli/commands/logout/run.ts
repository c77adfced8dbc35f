// agents logout: the key goes, wherever it is kept; the base URL and agent stay, for `agents login`.
import type { Context } from '../../run/context.js';
import { ENV_VARS, fromEnv, removeKey } from '../../../core/index.js';
import type { Item } from '../../output/items.js';

export async function* logout(ctx: Context): AsyncGenerator<Item> {
  const profile = ctx.profile();
  const removed = await removeKey(ctx.config, profile, ctx.keyStore);
  const from = removed === 'keychain' ? 'the system keychain' : 'the config file';
  const done = `Removed the API key of profile ${profile} from ${from}`;
  const none = `Profile ${profile} has no stored API key; nothing to do`;
  yield { kind: 'note', text: removed !== undefined ? done : none };
  const still = `${ENV_VARS.apiKey} is still set in this environment; unset it to log out completely`;
  if (fromEnv(ctx.io.env, ENV_VARS.apiKey) !== undefined) yield { kind: 'warning', text: still };
}
