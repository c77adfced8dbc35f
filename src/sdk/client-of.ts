// The ApiClient behind an Agents: the CLI's own, from the program's options, its notices turned into events.
import type { ApiClient } from '../core/api/client.js';
import { clientFromSettings, type BudgetSettings } from '../core/config/client-from-settings.js';
import { recorderOf } from '../core/state/turn-ends.js';
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

/** The key's budget as the builder takes it: paced alone, shared through the machine's file, or Redis. */
function budgetOf(o: AgentsOptions): BudgetSettings | false {
  if (o.budget === false) return false;
  const b = o.budget ?? {};
  return {
    shared: b.shared !== false,
    dir: b.dir,
    url: b.url ?? o.budgetUrl,
    limit: b.limit,
    windowMs: b.windowMs,
  };
}

/** The client for these options (nothing is read or sent until its first call). */
export function clientOf(
  o: AgentsOptions,
  connection: { apiKey: string; baseUrl: string },
  emit: (event: AgentsEvent) => void,
  owner?: object,
): ApiClient {
  const onListed = owner ? recorderOf(owner) : undefined;
  const budget = (message: string) => emit({ type: 'budget', message });
  return clientFromSettings({
    ...connection,
    env: o.env ?? process.env,
    platform: process.platform,
    product: 'agents-cli',
    nodeVersion: process.versions.node,
    ...(o.responseTimeoutMs !== undefined ? { limits: { responseTimeoutMs: o.responseTimeoutMs } } : {}),
    budget: budgetOf(o),
    tuning: o.tuning,
    hooks: {
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
      onListed,
      onForeign: ({ why }) =>
        emit({
          type: 'warning',
          message: `the service listed messages of another ${why}; they were left out`,
        }),
      onBudget: { fallback: budget, repair: budget, rejoin: budget },
    },
  });
}
