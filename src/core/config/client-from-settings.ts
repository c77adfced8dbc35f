// The one place an ApiClient is built from settings, for every face (the CLI's run, the library).
import { join } from 'node:path';
import { ApiClient, type ClientOptions } from '../api/client.js';
import type { Env, Tuning } from '../io/io.js';
import { VERSION } from '../../util/version.js';
import { stateDir } from './locations.js';

export function budgetDir(env: Env, platform: NodeJS.Platform): string {
  return join(stateDir(env, platform), 'pacing');
}

/** The key's budget: paced alone, or shared with the machine's other processes (a file) or a fleet (Redis). */
export interface BudgetSettings {
  shared: boolean;
  dir?: string;
  url?: string;
  label?: string;
  /** `limit` requests a minute, or in any windowMs. */
  limit?: number;
  windowMs?: number;
}

export type ClientHooks = Pick<ClientOptions, 'debug' | 'onRetry' | 'onPaced' | 'onForeign' | 'onListed'> & {
  /** A shared budget gave up, was repaired, or was rejoined (SharedPacingOptions' three notices). */
  onBudget?: { fallback: (m: string) => void; repair: (m: string) => void; rejoin: (m: string) => void };
};

export interface ClientSettings {
  baseUrl: string;
  apiKey: string;
  env: Env;
  platform: NodeJS.Platform;
  /** For the User-Agent: `<product>/<VERSION> node/<nodeVersion>`. */
  product: string;
  nodeVersion: string;
  limits?: Pick<
    ClientOptions,
    'connectTimeoutMs' | 'responseTimeoutMs' | 'requestTimeoutMs' | 'maxResponseBytes'
  >;
  /** false: no pacing at all. */
  budget: BudgetSettings | false;
  /** The tests' pacing beats the budget's, their retries the defaults. */
  tuning?: Pick<Tuning, 'pacing' | 'retry'>;
  hooks?: ClientHooks;
}

function budgetOptions(
  s: ClientSettings,
  told: ClientHooks['onBudget'],
): Pick<ClientOptions, 'pacing' | 'ratePerMinute' | 'sharedPacing'> {
  const b = s.budget;
  if (b === false || s.tuning?.pacing === false) return { pacing: false };
  const pacing =
    s.tuning?.pacing ??
    (b.windowMs === undefined ? undefined : { limit: b.limit ?? 100, windowMs: b.windowMs });
  const own = { ...(pacing ? { pacing } : {}), ...(b.limit !== undefined ? { ratePerMinute: b.limit } : {}) };
  if (!b.shared) return own;
  return {
    ...own,
    sharedPacing: {
      dir: b.dir ?? budgetDir(s.env, s.platform),
      ...(b.url !== undefined ? { url: b.url } : {}),
      ...(b.label !== undefined ? { label: b.label } : {}),
      ...(told ? { onFallback: told.fallback, onRepair: told.repair, onRejoin: told.rejoin } : {}),
    },
  };
}

/** `overrides` have the last word (login checks a key on another base URL); retries merge with the tuning's. */
export function clientFromSettings(s: ClientSettings, overrides: Partial<ClientOptions> = {}): ApiClient {
  const { onBudget, ...hooks } = s.hooks ?? {};
  const retry = { ...s.tuning?.retry, ...overrides.retry };
  return new ApiClient({
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    userAgent: `${s.product}/${VERSION} node/${s.nodeVersion}`,
    ...s.limits,
    env: s.env,
    ...budgetOptions(s, onBudget),
    ...hooks,
    ...overrides,
    ...(Object.keys(retry).length > 0 ? { retry } : {}),
  });
}
