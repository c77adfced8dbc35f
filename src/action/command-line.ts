// The Action's inputs as one `agents` command line, run in-process by main(): the CLI's own checks, client,
// budget, wait and GitHub outputs, so the Action cannot drift from the CLI (it is not a second client).
import type { Env, Tuning } from '../io/io.js';
import { DEFAULT_SCHEDULE } from '../poll/schedule.js';
import type { ActionInputs } from './inputs.js';
import { schemaFlags } from './schema.js';

/** What main() is given for one run of the Action. */
export interface AgentsRun {
  argv: string[];
  env: Env;
  /** The prompt, read by the CLI from standard input (`-`); undefined when it reads prompt_file. */
  stdin: string | undefined;
  tuning?: Tuning;
}

/**
 * poll_interval_seconds as a floor on every gap between two polls, jitter included; the schedule (and the
 * key's budget) still decides above it. Without it the CLI's own schedule runs untouched.
 */
function pollFloor(floorMs: number | undefined): Tuning | undefined {
  if (floorMs === undefined) return undefined;
  const least = Math.ceil(floorMs / (1 - DEFAULT_SCHEDULE.jitter));
  const at = (ms: number) => Math.max(ms, least);
  return {
    schedule: {
      minMs: at(DEFAULT_SCHEDULE.minMs),
      maxMs: at(DEFAULT_SCHEDULE.maxMs),
      longMaxMs: at(DEFAULT_SCHEDULE.longMaxMs),
    },
  };
}

/** The flags that name the agent and describe a new session (create only). */
function createFlags(i: ActionInputs): string[] {
  const flags = i.agent !== undefined ? ['--agent', i.agent] : ['--agent-id', i.agentId ?? ''];
  if (i.title !== undefined) flags.push('--title', i.title);
  if (i.sessionGroupId !== undefined) flags.push('--session-group', i.sessionGroupId);
  if (i.isPrivate) flags.push('--private');
  return flags;
}

/**
 * `agents --json create|send … [--wait --timeout S --github-output]`: the ids go to $GITHUB_OUTPUT before
 * the wait and the result after it, and the step summary is the CLI's. Options come before `--`, so a
 * session reference or prompt can never be read as one.
 */
export function commandLine(i: ActionInputs, env: Env): AgentsRun {
  const waitFlags = i.wait
    ? [
        '--wait',
        '--timeout',
        String(i.timeoutMs / 1000),
        // Outside a runner (a local run) there is no file to write them to.
        ...(env.GITHUB_OUTPUT ? ['--github-output'] : []),
        ...schemaFlags(i.schema),
      ]
    : [];
  const source = i.promptFile !== undefined ? ['--file', i.promptFile] : [];
  const message = i.promptFile !== undefined ? [] : ['-'];
  const argv =
    i.sessionId === undefined
      ? ['--json', 'create', ...createFlags(i), ...waitFlags, ...source, '--', ...message]
      : ['--json', 'send', ...waitFlags, ...source, '--', i.sessionId, ...message];
  // The inputs (the key among them) stay out of the CLI's environment: it takes the key as a setting.
  const own = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('INPUT_')));
  return {
    argv,
    env: {
      ...own,
      AGENTS_API_KEY: i.apiKey,
      AGENTS_BASE_URL: i.baseUrl,
      ...(i.budgetUrl !== undefined ? { AGENTS_BUDGET_URL: i.budgetUrl } : {}),
    },
    stdin: i.prompt,
    tuning: pollFloor(i.pollFloorMs),
  };
}
