// A run's history from its settings: its profile, its base URL, and where older entries (recorded before
// base URLs were) belong. Apart from history.ts, whose pure helpers the first file reaches (a usage error
// names the history), because the profile's stored base URL is read from the config file.
import { profileOf, type Profiles } from '../config/config-file.js';
import type { Settings } from '../config/settings.js';
import type { StateFile } from './state-file.js';
import { normalBaseUrl, type History } from './history.js';

/**
 * The history of a run with settings `s` (its profile, its base URL). The profile's stored base URL, which
 * places older entries, is read from the config only when a flag or the environment gave another; a broken
 * config file is said where a setting is needed, not here.
 */
export async function historyFor(
  state: StateFile,
  s: Pick<Settings, 'profile' | 'baseUrl' | 'sources'>,
  readProfiles: () => Promise<Profiles>,
): Promise<History> {
  const stored =
    s.sources.baseUrl === 'profile'
      ? s.baseUrl
      : await readProfiles().then(
          (p) => profileOf(p, s.profile)['base-url'],
          () => undefined,
        );
  const own = normalBaseUrl(s.baseUrl);
  return { state, profile: s.profile, baseUrl: own, legacyBaseUrl: normalBaseUrl(stored) ?? own };
}
