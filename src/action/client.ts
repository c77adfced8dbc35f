// The Action's client: the library's `Agents` made from the inputs and the runner's environment. The Action
// sends nothing itself: every request, poll, retry and slot of the key's budget is the library's.
import type { AgentsEvent, AgentsOptions } from '../sdk/index.js';
import {
  DEFAULT_SCHEDULE,
  failingLine,
  RATE_LIMITED_LINE,
  rateLimitFromEnv,
  sharedPacingFromEnv,
  type Env,
  type Tuning,
} from '../core/index.js';
import type { ActionInputs } from './inputs.js';

/** A library event as `agents … --wait` logs it off a terminal (retries and budget waits: on a terminal only). */
export function eventLine(e: AgentsEvent): string | undefined {
  if (e.type === 'budget' || e.type === 'warning') return `warning: ${e.message}`;
  if (e.type === 'poll-failed')
    return `warning: ${e.rateLimited ? RATE_LIMITED_LINE : failingLine(e.reason)}`;
  if (e.type === 'schema-retry')
    return `answer did not match the schema; asking again (${e.attempt} of ${e.of})`;
  return undefined;
}

/** The library's options for these inputs: the key's budget as the CLI keeps it (this machine's file,
 * budget_url's Redis, AGENTS_RATE_LIMIT and AGENTS_SHARED_PACING from the step's `env:`; a bad
 * AGENTS_RATE_LIMIT is a UsageError before anything is sent), the events as log lines. */
export function agentsOptions(
  i: ActionInputs,
  env: Env,
  log: (line: string) => void,
  tuning?: Tuning,
): AgentsOptions {
  // The key reaches the library as an option, never as a variable.
  const own = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('INPUT_')));
  const limit = rateLimitFromEnv(own);
  const floor = i.pollFloorMs;
  let schedule = tuning?.schedule;
  if (floor !== undefined) {
    // poll_interval_seconds floors every gap between two polls, jitter included; the schedule decides above.
    const base = { ...DEFAULT_SCHEDULE, ...schedule };
    const at = (ms: number) => Math.max(ms, Math.ceil(floor / (1 - base.jitter)));
    schedule = { ...schedule, minMs: at(base.minMs), maxMs: at(base.maxMs), longMaxMs: at(base.longMaxMs) };
  }
  return {
    apiKey: i.apiKey,
    baseUrl: i.baseUrl,
    env: own,
    budget: {
      shared: sharedPacingFromEnv(own),
      ...(limit !== undefined ? { limit } : {}),
      ...(i.budgetUrl !== undefined ? { url: i.budgetUrl } : {}),
    },
    onEvent: (e) => {
      const line = eventLine(e);
      if (line !== undefined) log(line);
    },
    tuning: {
      ...(tuning?.retry ? { retry: tuning.retry } : {}),
      ...(tuning?.pacing !== undefined ? { pacing: tuning.pacing } : {}),
      ...(schedule ? { schedule } : {}),
    },
  };
}
