// The Action's `with:` block, read and checked before anything is sent: the names and meanings of Blocks'
// own action (BlocksOrg/blocks-ci-sessions), plus ours. Each error names the input, not the CLI flag.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  MAX_TITLE_LENGTH,
  UsageError,
  validateAgent,
  validateApiKey,
  validateBaseUrl,
  validateBudgetUrl,
} from '../core/index.js';
import { isUuid } from '../util/uuid.js';

/** Every input action.yml declares, in its order; the only names the Action reads. */
export const INPUT_NAMES = [
  'blocks_api_key',
  'prompt',
  'agent',
  'agent_id',
  'session_id',
  'title',
  'session_group_id',
  'is_private',
  'timeout_minutes',
  'poll_interval_seconds',
  'fail_on_timeout',
  'api_base_url',
  'prompt_file',
  'wait',
  'budget_url',
  'output_schema',
  'schema_retries',
] as const;

export type InputName = (typeof INPUT_NAMES)[number];

/** Reads one input as the runner passes it, trimmed (@actions/core's getInput). */
export type InputReader = (name: InputName) => string;

/** action.yml's defaults, for a runner (or a test) that passes an input empty. */
const DEFAULT_BASE_URL = 'https://api.blocks.team';
const DEFAULT_TIMEOUT_MINUTES = 30;
const DEFAULT_SCHEMA_RETRIES = 2;
/** A job lasts at most 6 hours on GitHub's runners: a longer wait means nothing. */
const MAX_TIMEOUT_MINUTES = 360;
const MAX_POLL_SECONDS = 3600;

/** The inputs, checked: a follow-up (sessionId) has no agent, title, group or privacy of its own. */
export type ActionInputs = ReturnType<typeof parseInputs>;

/** Not the toolkit's getBooleanInput, which takes YAML 1.2's six spellings alone: yes, on and 1 would fail. */
function bool(read: InputReader, name: InputName, fallback: boolean): boolean {
  const value = read(name).toLowerCase();
  if (value === '') return fallback;
  if (['true', 'yes', 'on', '1'].includes(value)) return true;
  if (['false', 'no', 'off', '0'].includes(value)) return false;
  throw new UsageError(`input ${name} must be true or false, not ${JSON.stringify(value.slice(0, 40))}`);
}

function num(read: InputReader, name: InputName, min: number, max: number): number | undefined {
  const value = read(name);
  if (value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(
      `input ${name} must be a number from ${min} to ${max}, not ${JSON.stringify(value)}`,
    );
  }
  return n;
}

function uuid(read: InputReader, name: InputName): string | undefined {
  const value = read(name);
  if (value === '') return undefined;
  if (!isUuid(value)) throw new UsageError(`input ${name} must be a UUID, not ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

/** A path in the workspace (GITHUB_WORKSPACE, else the working directory) that must be a file. */
function workspaceFile(read: InputReader, name: InputName, workspace: string): string | undefined {
  const value = read(name);
  if (value === '') return undefined;
  const path = isAbsolute(value) ? value : resolve(workspace, value);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new UsageError(
      `input ${name}: no file ${value} in the workspace`,
      'paths are relative to the workspace: check out the repository (actions/checkout) before this step',
    );
  }
  return path;
}

/** The agent inputs: one of agent and agent_id for a new session; a follow-up keeps its session's. */
function agentInputs(read: InputReader, sessionId: string | undefined, ignored: string[]) {
  const name = read('agent').toLowerCase();
  const agentId = uuid(read, 'agent_id');
  if (name !== '' && agentId !== undefined) {
    throw new UsageError('inputs agent and agent_id exclude each other: give one');
  }
  const agent = name === '' ? undefined : validateAgent(name, 'input agent');
  if (sessionId !== undefined) {
    const own = ['agent', 'agent_id', 'title', 'session_group_id', 'is_private'] as const;
    ignored.push(...own.filter((n) => read(n) !== ''));
    return {};
  }
  if (agent === undefined && agentId === undefined) {
    throw new UsageError(
      'input agent (or agent_id) is needed to create a session',
      'set agent to one of claude, codex, gemini, opencode, cursor, kimi, sisyphus; or session_id for a follow-up',
    );
  }
  return { agent, agentId };
}

/** The prompt, from exactly one of prompt and prompt_file. */
function promptInputs(read: InputReader, workspace: string) {
  const prompt = read('prompt');
  const promptFile = workspaceFile(read, 'prompt_file', workspace);
  if (prompt !== '' && promptFile !== undefined) {
    throw new UsageError('inputs prompt and prompt_file exclude each other: give one');
  }
  if (prompt === '' && promptFile === undefined)
    throw new UsageError('input prompt (or prompt_file) is needed');
  return prompt === '' ? { promptFile } : { prompt };
}

/** Every input, checked: a UsageError naming the first that is wrong. */
export function parseInputs(read: InputReader, workspace: string) {
  const key = read('blocks_api_key');
  if (key === '') throw new UsageError('input blocks_api_key is needed', 'pass it from a secret');
  const apiKey = validateApiKey(key, 'input blocks_api_key');
  const baseUrl = validateBaseUrl(read('api_base_url') || DEFAULT_BASE_URL, 'input api_base_url').value;
  const sessionId = uuid(read, 'session_id');
  // Inputs given that a follow-up ignores (as Blocks' action does), said in the log.
  const ignored: string[] = [];
  const title = read('title');
  if (title.length > MAX_TITLE_LENGTH) {
    throw new UsageError(
      `input title must be at most ${MAX_TITLE_LENGTH} characters (it has ${title.length})`,
    );
  }
  const sessionGroupId = uuid(read, 'session_group_id');
  const wait = bool(read, 'wait', true);
  const schemaFile = workspaceFile(read, 'output_schema', workspace);
  const retries = num(read, 'schema_retries', 0, 10);
  if (retries !== undefined && !Number.isInteger(retries)) {
    throw new UsageError('input schema_retries must be a whole number from 0 to 10');
  }
  if (schemaFile !== undefined && !wait) throw new UsageError('input output_schema needs wait: true');
  const budget = read('budget_url');
  const minutes = num(read, 'timeout_minutes', 1 / 60, MAX_TIMEOUT_MINUTES) ?? DEFAULT_TIMEOUT_MINUTES;
  const pollSeconds = num(read, 'poll_interval_seconds', 1, MAX_POLL_SECONDS);
  return {
    apiKey,
    baseUrl,
    ...promptInputs(read, workspace),
    ...agentInputs(read, sessionId, ignored),
    sessionId,
    title: title === '' || sessionId !== undefined ? undefined : title,
    sessionGroupId: sessionId === undefined ? sessionGroupId : undefined,
    isPrivate: bool(read, 'is_private', false) && sessionId === undefined,
    timeoutMs: Math.round(minutes * 60_000),
    pollFloorMs: pollSeconds === undefined ? undefined : pollSeconds * 1000,
    failOnTimeout: bool(read, 'fail_on_timeout', true),
    wait,
    budgetUrl: budget === '' ? undefined : validateBudgetUrl(budget, 'input budget_url'),
    schema:
      schemaFile === undefined ? undefined : { file: schemaFile, retries: retries ?? DEFAULT_SCHEMA_RETRIES },
    ignored,
  };
}
