// The Action's client: the library's `Agents` (src/sdk's public entry, what `import 'agents-cli'` gives a
// program) made from the inputs and the runner's environment. The Action sends nothing itself: every
// request, poll, retry and slot of the key's budget is the library's; its progress comes back as log lines.
import type { AgentsEvent, AgentsOptions } from '../sdk/index.js';
import {
  DEFAULT_SCHEDULE,
  failingLine,
  RATE_LIMITED_LINE,
  rateLimitFromEnv,
  sharedPacingFromEnv,
  type Env,
  type ScheduleOptions,
  type Tuning,
} from '../core/index.js';
import type { ActionInputs } from './inputs.js';

/**
 * poll_interval_seconds as a floor on every gap between two polls, jitter included; the schedule (and the
 * key's budget) still decides above it. Without it the schedule runs untouched.
 */
export function pollFloor(
  floorMs: number | undefined,
  base: ScheduleOptions = DEFAULT_SCHEDULE,
): Partial<ScheduleOptions> | undefined {
  if (floorMs === undefined) return undefined;
  const least = Math.ceil(floorMs / (1 - base.jitter));
  const at = (ms: number) => Math.max(ms, least);
  return { minMs: at(base.minMs), maxMs: at(base.maxMs), longMaxMs: at(base.longMaxMs) };
}

/** The runner's environment without the inputs: the key reaches the library as an option, never a variable. */
export function ownEnv(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('INPUT_')));
}

/**
 * A library event as the job's log shows it, as `agents … --wait` shows it off a terminal (retries and
 * waits for a slot of the budget are said on a terminal only); undefined for none.
 */
export function eventLine(e: AgentsEvent): string | undefined {
  if (e.type === 'budget' || e.type === 'warning') return `warning: ${e.message}`;
  if (e.type === 'poll-failed') {
    return `warning: ${e.rateLimited ? RATE_LIMITED_LINE : failingLine(e.reason)}`;
  }
  if (e.type === 'schema-retry')
    return `answer did not match the schema; asking again (${e.attempt} of ${e.of})`;
  return undefined;
}

/**
 * The library's options for these inputs: the key and base URL; the key's budget as the CLI keeps it (this
 * machine's file, shared with every `agents` on it; `budget_url`'s Redis; AGENTS_RATE_LIMIT and
 * AGENTS_SHARED_PACING from the step's `env:`); the poll floor; the events as log lines. A bad
 * AGENTS_RATE_LIMIT is a UsageError here, before anything is sent.
 */
export function agentsOptions(
  i: ActionInputs,
  env: Env,
  log: (line: string) => void,
  tuning?: Tuning,
): AgentsOptions {
  const own = ownEnv(env);
  const limit = rateLimitFromEnv(own);
  const floor = pollFloor(i.pollFloorMs, { ...DEFAULT_SCHEDULE, ...tuning?.schedule });
  const schedule = tuning?.schedule || floor ? { ...tuning?.schedule, ...floor } : undefined;
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
