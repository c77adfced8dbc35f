// agents config list | get | set | unset | path. `list` and `get` show the value in effect for this run
// (flag > env > profile) and where it comes from; `set` and `unset` change the active profile. A key is
// only ever shown masked.
import type { Context } from '../context.js';
import { maskKey } from '../config/mask.js';
import { readConfig, type ProfileReader } from '../config/read.js';
import { ENV_VARS, resolveSettings, type SettingSource, type Settings } from '../config/settings.js';
import { CONFIG_KEYS, validateConfigKey, validateConfigValue, type ConfigKey } from '../config/validate.js';

/** One setting as `list` and `get` report it; `value` is masked for api-key, null when unset. */
export interface ConfigEntry {
  key: ConfigKey;
  value: string | null;
  source: Exclude<SettingSource, 'default'> | 'unset';
  /** Where exactly: "--base-url", "AGENTS_API_KEY", "profile work"; null when unset. */
  origin: string | null;
}

/** The output of `config list`. */
export interface ConfigListing {
  profile: string;
  profileSource: SettingSource;
  path: string;
  profiles: string[];
  settings: Record<ConfigKey, ConfigEntry>;
}

const FIELD: Record<ConfigKey, 'apiKey' | 'baseUrl' | 'agent'> = {
  'api-key': 'apiKey',
  'base-url': 'baseUrl',
  agent: 'agent',
};
const FLAGS: Partial<Record<ConfigKey, string>> = { 'base-url': '--base-url' };

function entry(s: Settings, key: ConfigKey): ConfigEntry {
  const field = FIELD[key];
  const raw = s[field];
  const source = s.sources[field];
  if (raw === undefined || source === 'default') return { key, value: null, source: 'unset', origin: null };
  const origin =
    source === 'flag' ? (FLAGS[key] ?? 'flag') : source === 'env' ? ENV_VARS[field] : `profile ${s.profile}`;
  return { key, value: key === 'api-key' ? maskKey(raw) : raw, source, origin };
}

// Reads go straight to the file; conf (the writer) is loaded only by set and unset.
function open(ctx: Context): { store: ProfileReader; settings: Settings } {
  const store = readConfig(ctx.env);
  return { store, settings: resolveSettings(ctx.globals, ctx.env, store) };
}

async function openForWrite(ctx: Context) {
  const { openConfig } = await import('../config/store.js');
  const store = openConfig(ctx.env);
  return { store, settings: resolveSettings(ctx.globals, ctx.env, store) };
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The settings in effect for the active profile, each with its source. */
export function configList(ctx: Context): ConfigListing {
  const { store, settings } = open(ctx);
  const entries = Object.fromEntries(CONFIG_KEYS.map((k) => [k, entry(settings, k)])) as Record<
    ConfigKey,
    ConfigEntry
  >;
  return {
    profile: settings.profile,
    profileSource: settings.sources.profile,
    path: store.path,
    profiles: store.profiles(),
    settings: entries,
  };
}

/** Text form of `config list`: one aligned row per key, the source in parentheses. */
export function formatConfigList(l: ConfigListing): string {
  const profileOrigin =
    l.profileSource === 'flag' ? '--profile' : l.profileSource === 'env' ? ENV_VARS.profile : 'default';
  const rows: [string, string, string][] = [
    ['profile', l.profile, profileOrigin],
    ...CONFIG_KEYS.map((k): [string, string, string] => {
      const e = l.settings[k];
      return [k, e.value ?? '-', e.origin ?? 'unset'];
    }),
    ['profiles', l.profiles.length ? l.profiles.join(', ') : '-', 'config file'],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([k, v, o]) => `${k.padEnd(w0)}  ${v.padEnd(w1)}  (${o})\n`).join('');
}

export function runConfigList(ctx: Context): void {
  const listing = configList(ctx);
  ctx.out(ctx.globals.json ? json(listing) : formatConfigList(listing));
}

/** The value in effect for `key` (masked for api-key). */
export function configGet(ctx: Context, key: string): ConfigEntry {
  const k = validateConfigKey(key);
  return entry(open(ctx).settings, k);
}

export function runConfigGet(ctx: Context, key: string): void {
  const e = configGet(ctx, key);
  if (ctx.globals.json) ctx.out(json(e));
  else if (e.value !== null) ctx.out(`${e.value}\n`);
  else ctx.log.info(`${e.key} is not set`);
}

/** Stores a validated value in the active profile. Returns the warnings the caller should show. */
export async function configSet(
  ctx: Context,
  key: string,
  value: string,
): Promise<{ profile: string; warnings: string[] }> {
  const k = validateConfigKey(key);
  const checked = validateConfigValue(k, value);
  const { store, settings } = await openForWrite(ctx);
  store.set(settings.profile, k, checked.value);
  const warnings: string[] = [];
  if (checked.warning !== undefined) warnings.push(checked.warning);
  if (k === 'api-key') {
    warnings.push(
      "a key on the command line stays in the shell's history; `agents login --with-key` reads it from standard input",
    );
  }
  const field = FIELD[k];
  const source = settings.sources[field];
  if (source === 'env' || source === 'flag') {
    const by = source === 'env' ? ENV_VARS[field] : (FLAGS[k] ?? 'a flag');
    warnings.push(`${by} overrides this value in this run`);
  }
  return { profile: settings.profile, warnings };
}

export async function runConfigSet(ctx: Context, key: string, value: string): Promise<void> {
  const { profile, warnings } = await configSet(ctx, key, value);
  for (const w of warnings) ctx.log.warn(w);
  ctx.log.info(`Set ${key} in profile ${profile}`);
}

/** Removes `key` from the active profile; false when it was not set. */
export async function configUnset(ctx: Context, key: string): Promise<{ profile: string; removed: boolean }> {
  const k = validateConfigKey(key);
  const { store, settings } = await openForWrite(ctx);
  const removed = store.get(settings.profile, k) !== undefined;
  store.unset(settings.profile, k);
  return { profile: settings.profile, removed };
}

export async function runConfigUnset(ctx: Context, key: string): Promise<void> {
  const { profile, removed } = await configUnset(ctx, key);
  ctx.log.info(removed ? `Unset ${key} in profile ${profile}` : `${key} was not set in profile ${profile}`);
}

export function runConfigPath(ctx: Context): void {
  const { path } = readConfig(ctx.env);
  ctx.out(ctx.globals.json ? json({ path }) : `${path}\n`);
}
