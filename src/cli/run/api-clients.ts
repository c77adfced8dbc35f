// How a run makes its API clients: its settings from the environment, its notices (retries, pacing, a
// foreign message) on stderr through the run's logger.
import type { ApiClient, ClientOptions } from '../../core/api/client.js';
import { clientFromSettings, type BudgetSettings } from '../../core/config/client-from-settings.js';
import type { IO } from '../../core/io/io.js';
import { maxResponseFromEnv, rateLimitFromEnv, requestTimeouts } from '../../core/config/env.js';
import type { TerminalCaps } from '../output/terminal.js';
import type { Logger } from '../output/stderr.js';
import { formatDuration } from '../../util/duration.js';
import type { RetryNotice } from '../../core/api/backoff.js';

/** Off a terminal, a call failing this long is said on stderr (a CI log shows why a step is slow)... */
const QUIET_RETRY_MS = 5000;
/** ...at most this often. */
const TOLD_EVERY_MS = 30_000;

/** The line of a retry: why, when, and what ends the retries. */
function retryLine(n: RetryNotice): string {
  const left = formatDuration(n.leftMs ?? 0);
  const until = n.rateLimited
    ? n.bound === 'deadline'
      ? 'the key is busy: until it is not, or the --timeout'
      : `the key is busy: for up to ${left} more; --timeout sets another bound`
    : n.bound === 'deadline'
      ? 'until the --timeout'
      : n.bound === 'outage'
        ? `the service may be restarting: for up to ${left} more`
        : `${n.attempt} of ${n.maxRetries}`;
  return `${n.reason}; retrying in ${formatDuration(n.delayMs)} (${until})`;
}

/** Makes an API client for a base URL and key, with the run's settings unless `options` says otherwise. */
export type ClientFor = (
  options: Pick<ClientOptions, 'baseUrl' | 'apiKey'> & Partial<ClientOptions> & { budgetUrl?: string },
) => ApiClient;

/** Told of each page a client for `baseUrl` listed. */
export type ListedOn = (
  baseUrl: string,
  ...page: Parameters<NonNullable<ClientOptions['onListed']>>
) => Promise<void>;

/** Makes the run's API clients, with its settings from the environment and its notices on stderr. */
export function clientMaker(
  io: IO,
  caps: TerminalCaps,
  log: Logger,
  debug: boolean,
  budget: BudgetSettings | false,
  onListed: ListedOn,
): ClientFor {
  const { env } = io;
  // A server whose filter let another session's or thread's message through: said once a run, on stderr
  // (the message itself is dropped by the client).
  let toldForeign = false;
  // Off a terminal, when a call has been failing QUIET_RETRY_MS (the run's clock, not the test's).
  let toldRetryAt = Number.NEGATIVE_INFINITY;
  const onRetry = (n: RetryNotice) => {
    if (!caps.stderrIsTTY) {
      const now = Date.now();
      if ((n.failingForMs ?? 0) < QUIET_RETRY_MS || now - toldRetryAt < TOLD_EVERY_MS) return;
      toldRetryAt = now;
    }
    log.warn(retryLine(n));
  };
  const onForeign: ClientOptions['onForeign'] = ({ why, target }) => {
    if (toldForeign) return;
    toldForeign = true;
    const asked = why === 'session' ? `session ${target.sessionId}` : `thread ${target.threadId}`;
    log.warn(`the service listed messages of another ${why} than ${asked}; they were left out`);
  };
  return ({ baseUrl, apiKey, budgetUrl, ...overrides }) => {
    const rate = rateLimitFromEnv(env);
    return clientFromSettings(
      {
        baseUrl,
        apiKey,
        env,
        platform: io.runtime.platform,
        product: 'agents',
        nodeVersion: io.runtime.nodeVersion,
        limits: { ...requestTimeouts(env), maxResponseBytes: maxResponseFromEnv(env) },
        // A fleet's budget in Redis, where one is configured: shared by every machine on the key.
        budget: budget && {
          ...budget,
          ...(rate !== undefined && { limit: rate }),
          ...(budgetUrl !== undefined && { url: budgetUrl }),
        },
        ...(io.tuning && { tuning: io.tuning }),
        hooks: {
          onForeign,
          ...(debug && { debug: (line: string) => log.debug(line) }),
          // A person at a terminal sees why nothing happens while a request is retried; a log, a long outage.
          onRetry,
          ...(caps.stderrIsTTY && {
            onPaced: ({ limit }: { limit: number }) =>
              log.info(
                `waiting for a request slot: ${limit} requests a minute for this key${rate === undefined ? '' : ' (AGENTS_RATE_LIMIT)'}, and the last minute has used them (this process and any other agents process on this machine)`,
              ),
          }),
          onBudget: { fallback: (m) => log.warn(m), repair: (m) => log.warn(m), rejoin: (m) => log.info(m) },
          onListed: (target, messages) => onListed(baseUrl, target, messages),
        },
      },
      overrides,
    );
  };
}
