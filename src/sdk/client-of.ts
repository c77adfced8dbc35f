// The ApiClient behind an Agents: the CLI's own client, with the program's options instead of the CLI's
// environment, and its notices (retries, pacing, a budget store that failed) turned into events.
import { join } from 'node:path';
import type { ApiClient, ClientOptions } from '../core/api/client.js';
import { ApiClient as Client } from '../core/api/client.js';
import { stateDir } from '../core/config/locations.js';
import { VERSION } from '../util/version.js';
import type { History } from '../core/state/history.js';
import { recordTurnEnds, type TurnEnds } from '../core/state/turn-ends.js';
import type { AgentsEvent, AgentsOptions } from './types.js';

/** Sends an event to the program, if it listens; a listener that throws never breaks a call. */
export function emitter(onEvent: AgentsOptions['onEvent']): (event: AgentsEvent) => void {
  return (event) => {
    try {
      onEvent?.(event);
    } catch {
      // The program's listener failing is its own business, not the call's.
    }
  };
}

/** The key's budget as the client takes it: paced alone, shared through the machine's file, or Redis. */
function budgetOf(
  o: AgentsOptions,
  env: Record<string, string | undefined>,
  emit: (event: AgentsEvent) => void,
): Pick<ClientOptions, 'pacing' | 'ratePerMinute' | 'sharedPacing'> {
  if (o.budget === false || o.tuning?.pacing === false) return { pacing: false };
  const b = o.budget ?? {};
  const pacing =
    o.tuning?.pacing ??
    (b.windowMs === undefined ? undefined : { limit: b.limit ?? 100, windowMs: b.windowMs });
  const url = b.url ?? o.budgetUrl;
  const own = { ...(pacing ? { pacing } : {}), ...(b.limit !== undefined ? { ratePerMinute: b.limit } : {}) };
  if (b.shared === false) return own;
  return {
    ...own,
    sharedPacing: {
      dir: b.dir ?? join(stateDir(env, process.platform), 'pacing'),
      ...(url !== undefined ? { url } : {}),
      onFallback: (message) => emit({ type: 'budget', message }),
      onRepair: (message) => emit({ type: 'budget', message }),
      onRejoin: (message) => emit({ type: 'budget', message }),
    },
  };
}

/**
 * The CLI's history an Agents records the turns' ends it sees in (one made by fromConfig, or by a run
 * that hosts the library), so that `agents ls` shows them; kept here, out of the package's API.
 */
const recorders = new WeakMap<object, TurnEnds>();

/** Has `agents` record each turn's end it sees in `history` (src/core/state/turn-ends.ts). */
export function recordIn(agents: object, history: History): void {
  recorders.set(agents, recordTurnEnds(history));
}

/** The client for these options (nothing is read or sent until its first call). */
export function clientOf(
  o: AgentsOptions,
  connection: { apiKey: string; baseUrl: string },
  emit: (event: AgentsEvent) => void,
  owner?: object,
): ApiClient {
  const env = o.env ?? process.env;
  const onListed = owner && recorders.get(owner);
  return new Client({
    ...connection,
    userAgent: `agents-cli/${VERSION} node/${process.versions.node}`,
    ...(o.responseTimeoutMs !== undefined ? { responseTimeoutMs: o.responseTimeoutMs } : {}),
    env,
    ...budgetOf(o, env, emit),
    ...(o.tuning?.retry ? { retry: o.tuning.retry } : {}),
    onRetry: (n) =>
      emit({
        type: 'retry',
        reason: n.reason,
        attempt: n.attempt,
        maxRetries: n.maxRetries,
        delayMs: n.delayMs,
        rateLimited: n.rateLimited === true,
      }),
    onPaced: ({ limit, windowMs }) => emit({ type: 'paced', limit, windowMs }),
    ...(onListed ? { onListed } : {}),
    onForeign: ({ why }) =>
      emit({ type: 'warning', message: `the service listed messages of another ${why}; they were left out` }),
  });
}
