import type { ConfigKey, KeyPlace, SettingSource } from '../../../core/index.js';
import type { Handlers } from '../../output/printer.js';

/** One setting as `list` and `get` report it; `value` is masked for api-key, null when unset. */
export interface ConfigEntry {
  key: ConfigKey;
  value: string | null;
  source: Exclude<SettingSource, 'default'> | 'unset';
  origin: string | null;
  store?: KeyPlace;
}

export interface ConfigListing {
  profile: string;
  profileSource: SettingSource;
  path: string;
  profiles: string[];
  settings: Record<ConfigKey, ConfigEntry>;
}

function renderConfigList(l: ConfigListing): string {
  const profileOrigin =
    l.profileSource === 'flag' ? '--profile' : l.profileSource === 'env' ? 'AGENTS_PROFILE' : 'default';
  const rows: [string, string, string][] = [
    ['profile', l.profile, profileOrigin],
    ...Object.values(l.settings).map((e): [string, string, string] => [
      e.key,
      e.value ?? (e.store === 'keychain' ? '(in the system keychain)' : '-'),
      e.origin ?? 'unset',
    ]),
    ['profiles', l.profiles.length ? l.profiles.join(', ') : '-', 'config file'],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([k, v, o]) => `${k.padEnd(w0)}  ${v.padEnd(w1)}  (${o})\n`).join('');
}

export type ConfigItem =
  { kind: 'config-list'; listing: ConfigListing } | { kind: 'config-entry'; entry: ConfigEntry };

export const print: Handlers<ConfigItem> = {
  'config-list'(p, { listing }) {
    p.out(p.json ? JSON.stringify(listing, null, 2) + '\n' : renderConfigList(listing));
  },
  'config-entry'(p, { entry: e }) {
    if (p.json) p.out(JSON.stringify(e, null, 2) + '\n');
    else if (e.value !== null) p.out(`${e.value}\n`);
    else if (e.store === 'keychain') p.ctx.log.info(`${e.key} is in the system keychain, and never shown`);
    else p.ctx.log.info(`${e.key} is not set`);
  },
};
