// Which agent a create goes to: one agent flag, else the configured default, else a prompt, else exit 2. The
// flags are settled in the parse step (create, send, chat), the default and the prompt when the command runs.
import { readFileSync } from 'node:fs';
import {
  type AgentSelection,
  CORE_AGENTS,
  type CoreAgent,
  type Profile,
  UsageError,
} from '../../core/index.js';
import { isObject } from '../../util/json.js';
import { isUuid } from '../../util/uuid.js';

/** The agent options of create (and the profile options of send), as given. */
export interface AgentFlags {
  agent?: string;
  agentId?: string;
  agentProfile?: string;
  agentProfileFile?: string;
}

/** The agent options after the parse step: --agent-profile or --agent-profile-file as one Profile. */
export interface CheckedAgentFlags {
  agent?: string;
  agentId?: string;
  profile?: Profile;
}

/** A profile's fields, each with its check and what the check wants, in the order they are checked. */
const PROFILE_FIELDS: Record<string, [(v: unknown) => boolean, string]> = {
  id: [(v) => typeof v === 'string' && isUuid(v), 'a UUID string'],
  config_values: [isObject, 'an object'],
  mcp_servers: [Array.isArray, 'an array'],
  config_merge_strategy: [(v) => typeof v === 'string', 'a string'],
};

/** A Profile object from parsed JSON, or a UsageError saying what is wrong. */
export function validateProfile(value: unknown, origin: string): Profile {
  if (!isObject(value)) throw new UsageError(`${origin}: a profile must be a JSON object`);
  const unknown = Object.keys(value).find((key) => !Object.hasOwn(PROFILE_FIELDS, key));
  if (unknown !== undefined) {
    const allowed = `allowed: ${Object.keys(PROFILE_FIELDS).join(', ')}`;
    throw new UsageError(`${origin}: unknown profile field "${unknown}"`, allowed);
  }
  for (const [key, [ok, wanted]] of Object.entries(PROFILE_FIELDS)) {
    if (value[key] !== undefined && !ok(value[key]))
      throw new UsageError(`${origin}: "${key}" must be ${wanted}`);
  }
  if (Object.keys(value).length === 0) throw new UsageError(`${origin}: the profile is empty`);
  return value;
}

/** The profile of --agent-profile or --agent-profile-file (read and checked); send takes only these two. */
export function profileFromFlags({ agentProfile, agentProfileFile: path }: AgentFlags): Profile | undefined {
  if (agentProfile !== undefined && path !== undefined) {
    throw new UsageError('give only one of --agent-profile and --agent-profile-file');
  }
  if (agentProfile !== undefined) return { id: agentProfile };
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read --agent-profile-file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `--agent-profile-file ${path} is not valid JSON: ${(err as Error).message.split('\n')[0]}`,
    );
  }
  return validateProfile(parsed, `--agent-profile-file ${path}`);
}

/** The parse step for create: at most one agent flag, and the profile file read and checked. */
export function checkAgentFlags(flags: AgentFlags): CheckedAgentFlags {
  const given = [flags.agent, flags.agentId, flags.agentProfile, flags.agentProfileFile];
  if (given.filter((v) => v !== undefined).length > 1) {
    throw new UsageError('give only one of --agent, --agent-id, --agent-profile and --agent-profile-file');
  }
  return { agent: flags.agent, agentId: flags.agentId, profile: profileFromFlags(flags) };
}

/** The agent of a create: the flags', else the configured default, else `choose` (where one can prompt). */
export async function selectAgent(
  flags: CheckedAgentFlags,
  configured: () => Promise<CoreAgent | undefined>,
  choose: (() => Promise<CoreAgent>) | undefined,
): Promise<AgentSelection> {
  if (flags.agent !== undefined) return { agent_name: flags.agent as CoreAgent };
  if (flags.agentId !== undefined) return { agent_id: flags.agentId };
  if (flags.profile !== undefined) return { profile: flags.profile };
  const fallback = await configured();
  if (fallback !== undefined) return { agent_name: fallback };
  if (choose !== undefined) return { agent_name: await choose() };
  throw new UsageError(
    'no agent given',
    `pass --agent (${CORE_AGENTS.join(', ')}), --agent-id or --agent-profile, or set a default: agents config set agent claude`,
  );
}
