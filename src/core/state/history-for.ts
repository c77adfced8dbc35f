// A run's history from its settings (apart from history.ts, which the first file reaches: this reads config).
import { profileOf, type Profiles } from '../config/config-file.js';
import type { Settings } from '../config/settings.js';
import type { StateFile } from './state-file.js';
import { normalBaseUrl, type History } from './history.js';

/** The history of a run with settings `s`. The profile's stored base URL (which places older entries) is read
 * only when a flag or the environment gave another; a broken config file is said where a setting is needed. */
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
