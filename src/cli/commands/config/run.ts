// agents config: `list` and `get` show the value in effect (flag > env > profile), a key only ever masked.
import type { Context } from '../../run/context.js';
import {
  CONFIG_KEYS,
  type ConfigKey,
  describeSource,
  ENV_VARS,
  maskKey,
  maskUrlPassword,
  removeKey,
  type SettingName,
  type Settings,
  storeKey,
  validateConfigKey,
  validateConfigValue,
} from '../../../core/index.js';
import type { Item } from '../../output/items.js';
import type { ConfigEntry, ConfigListing, ConfigItem } from './items.js';

export { print } from './items.js';

/** A config key's setting: `base-url` → `baseUrl`. */
const fieldOf = (key: ConfigKey) =>
  key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as SettingName;

/** A setting as list and get show it: masked, with where it comes from; for the key, where it is kept. */
function entry(s: Settings, key: ConfigKey): ConfigEntry {
  const place = key === 'api-key' ? s.keyPlace : undefined;
  const store = place === undefined ? {} : { store: place };
  // The keychain's key is not read to be shown, even masked.
  if (place === 'keychain' && s.apiKey === undefined)
    return { key, value: null, source: 'profile', origin: `profile ${s.profile}, system keychain`, ...store };
  const field = fieldOf(key);
  const raw = s[field];
  const source = s.sources[field];
  let shown: ConfigEntry = { key, value: null, source: 'unset', origin: null };
  if (raw !== undefined && source !== 'default') {
    const origin = source === 'profile' ? `profile ${s.profile}` : describeSource(s, field);
    const value = key === 'api-key' ? maskKey(raw) : key === 'budget-url' ? maskUrlPassword(raw) : raw;
    shown = { key, value, source, origin };
  }
  if (place === 'file') shown.origin = `profile ${s.profile}, config file`;
  return { ...shown, ...store };
}

export async function configList(ctx: Context): Promise<Item | ConfigItem> {
  const s = await ctx.settings(undefined, { keychain: false });
  const settings = Object.fromEntries(CONFIG_KEYS.map((k) => [k, entry(s, k)])) as ConfigListing['settings'];
  const profiles = Object.keys(await ctx.config.profiles()).sort();
  const { path } = ctx.config;
  const listing = { profile: s.profile, profileSource: s.sources.profile, path, profiles, settings };
  return { kind: 'config-list', listing };
}

export async function configGet(ctx: Context, key: string): Promise<Item | ConfigItem> {
  const k = validateConfigKey(key);
  return { kind: 'config-entry', entry: entry(await ctx.settings([fieldOf(k)], { keychain: false }), k) };
}

export async function* configSet(ctx: Context, key: string, value: string): AsyncGenerator<Item> {
  const k = validateConfigKey(key);
  const checked = validateConfigValue(k, value);
  const profile = ctx.profile();
  if (k === 'api-key') {
    // Into the file, as asked: a key the keychain held for the profile is removed from it.
    await storeKey(ctx.config, profile, { apiKey: checked.value }, 'file', ctx.keyStore);
  } else await ctx.config.set(profile, k, checked.value);
  if (checked.warning !== undefined) yield { kind: 'warning', text: checked.warning };
  const inHistory =
    "a key on the command line stays in the shell's history; `agents login --with-key` reads it from standard input";
  if (k === 'api-key') yield { kind: 'warning', text: inHistory };
  const field = fieldOf(k);
  const flag = field === 'baseUrl' && ctx.globals.baseUrl !== undefined;
  const fromEnv = ctx.io.env[ENV_VARS[field]];
  if (flag || (fromEnv !== undefined && fromEnv !== '')) {
    const by = flag ? '--base-url' : ENV_VARS[field];
    yield { kind: 'warning', text: `${by} overrides this value in this run` };
  }
  yield { kind: 'note', text: `Set ${key} in profile ${profile}` };
}

export async function configUnset(ctx: Context, key: string): Promise<Item> {
  const k = validateConfigKey(key);
  const profile = ctx.profile();
  const removed =
    k === 'api-key'
      ? (await removeKey(ctx.config, profile, ctx.keyStore)) !== undefined
      : await ctx.config.unset(profile, k);
  return {
    kind: 'note',
    text: removed ? `Unset ${key} in profile ${profile}` : `${key} was not set in profile ${profile}`,
  };
}

export function showConfigPath(ctx: Context): Item {
  return { kind: 'value', text: ctx.config.path, json: { path: ctx.config.path } };
}
