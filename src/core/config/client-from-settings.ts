// The one place an ApiClient is built from settings, for every face: the CLI's run (src/cli/run/api-clients.ts)
// and the library (src/sdk/client-of.ts). A face gives its resolved settings, the tests' tuning and its
// hooks; the budget's shape and where this machine keeps it are decided here once.
import { join } from 'node:path';
import { ApiClient, type ClientOptions } from '../api/client.js';
import type { Env, Tuning } from '../io/io.js';
import { VERSION } from '../../util/version.js';
import { stateDir } from './locations.js';

/** Where this machine keeps its keys' budgets (`agents budget` reads them there). */
export function budgetDir(env: Env, platform: NodeJS.Platform): string {
  return join(stateDir(env, platform), 'pacing');
}

/** The key's budget: paced alone, or shared with the machine's other processes (a file) or a fleet (Redis). */
export interface BudgetSettings {
  /** false: this process paces itself alone. */
  shared: boolean;
  /** Default budgetDir(env, platform). */
  dir?: string;
  /** The `budgetUrl` setting. */
  url?: string;
  /** What the run is, written beside its entries in the shared budget. */
  label?: string;
  /** `limit` requests a minute, or in any windowMs. */
  limit?: number;
  windowMs?: number;
}

/** How a face hears of its client's work. */
export type ClientHooks = Pick<ClientOptions, 'debug' | 'onRetry' | 'onPaced' | 'onForeign' | 'onListed'> & {
  /** A shared budget gave up, was repaired, or was rejoined (SharedPacingOptions' three notices). */
  onBudget?: { fallback: (m: string) => void; repair: (m: string) => void; rejoin: (m: string) => void };
};

/** A client's settings, resolved by the face (its flags, environment, config file or program options). */
export interface ClientSettings {
  baseUrl: string;
  apiKey: string;
  /** Where the proxy variables and the state directory come from. */
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
  /** The tests' knobs: their pacing beats the budget's, their retries the defaults. */
  tuning?: Pick<Tuning, 'pacing' | 'retry'>;
  hooks?: ClientHooks;
}

/** The key's budget as the client takes it. */
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

/**
 * The client for these settings (nothing is read or sent until its first call). `overrides` are the caller's
 * last word on any option (login checks a key on another base URL); its retries merge with the tuning's.
 */
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
