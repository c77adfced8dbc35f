// The Agent Sessions API's resources (the spec, widened where the live service differs). The records the
// service answers with are each one module of ./schemas/: type, contract and check together.

/** The built-in agents accepted as `agent_name`: the spec's six, and `sisyphus`, which the live service takes. */
export const CORE_AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'cursor', 'kimi', 'sisyphus'] as const;
export type CoreAgent = (typeof CORE_AGENTS)[number];

export type {
  Artifact,
  Link,
  ListedMessage,
  Message,
  MessagePage,
  PullRequestRef,
  SentMessage,
  Session,
  SessionLinks,
} from './schemas/index.js';
export { MESSAGE_TYPES, ROLES, type MessageType, type Role } from './schemas/message-kinds.js';
import type { MessageType, Role } from './schemas/message-kinds.js';

/** Profile request object (create and send). Its inner shapes are not described by the spec. */
export interface Profile {
  id?: string;
  config_values?: Record<string, unknown>;
  mcp_servers?: unknown[];
  config_merge_strategy?: string;
}

/** The live service's longest session title (CreateSessionBody.title). */
export const MAX_TITLE_LENGTH = 200;

/** Exactly one of agent_name, agent_id, profile. */
export interface CreateSessionBody {
  message: string;
  agent_name?: CoreAgent;
  agent_id?: string;
  profile?: Profile;
  is_private?: boolean;
  artifact_ids?: string[];
  /** The live service's, not the spec's (as session_group_id). */
  title?: string;
  session_group_id?: string;
}

export interface SendMessageBody {
  message: string;
  artifact_ids?: string[];
  profile?: Profile;
}

/** `role` repeated is understood by newer deployments of the live service. */
export interface ListQuery {
  type?: MessageType[];
  role?: Role | Role[];
  thread_id?: string;
  gts?: number;
  page?: number;
  limit?: number;
  direction?: 'asc' | 'desc';
}

/** The part of a create body that names the agent (a flag, an ACP client's choice, the config). */
export type AgentSelection = Pick<CreateSessionBody, 'agent_name' | 'agent_id' | 'profile'>;
