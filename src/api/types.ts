// The Agent Sessions API's resources, as described in ../shared/spec/agent-sessions-api.md, widened where
// the live service answers differently (../shared/spec/live-service.md). Shared by the client, the poller,
// the commands and the emulator.

/** The built-in agents accepted as `agent_name`: the spec's six, and `sisyphus`, which the live service takes. */
export const CORE_AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'cursor', 'kimi', 'sisyphus'] as const;
export type CoreAgent = (typeof CORE_AGENTS)[number];

/** What a message is: the agent's progress, the turn's final reply, or a tool call. */
export type MessageType = 'message' | 'final_message' | 'tool_call';
export const MESSAGE_TYPES: readonly MessageType[] = ['message', 'final_message', 'tool_call'];

/** Who wrote a message. */
export type Role = 'user' | 'assistant';
export const ROLES: readonly Role[] = ['user', 'assistant'];

/** An absolute address carried in `_links`. */
export interface Link {
  /** The address. */
  href: string;
}

/** Session links; `thread` and `final_message` are set only in the create response. */
export interface SessionLinks {
  /** The session. */
  self: Link;
  /** Its messages. */
  messages: Link;
  /** The new turn's messages (create only). */
  thread: Link | null;
  /** The new turn's final reply (create only). */
  final_message: Link | null;
}

/** A pull request as the live service lists it; the spec lists plain strings. */
export interface PullRequestRef {
  /** The pull request's page. */
  url: string;
  /** `open`, `merged`, … */
  status?: string;
}

/** A session (conversation) of the caller's workspace. Fields the service adds are kept as they come. */
export interface Session {
  /** The session's id (a UUID). */
  id: string;
  /** Its title, set by the service (may be empty). */
  title: string;
  /** The pull requests the agent opened: URLs (the spec) or `{url, status}` (the live service). */
  pull_requests: (string | PullRequestRef)[];
  /** Where the session came from, when the service says. */
  source_url: string | null;
  /** Archived in the dashboard. */
  is_archived: boolean;
  /** Only its creator sees it. */
  is_private: boolean;
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601. */
  updated_at: string;
  /** The first turn's thread (the create response), else null. */
  thread_id: string | null;
  /** The session's page in the Blocks dashboard. */
  session_html_url: string;
  /** Addresses of the session's resources. */
  _links: SessionLinks;
  /** Live service: the latest artifact of each plan, oldest plan first. */
  plan_artifact_ids?: string[];
  /** Live service: the group the session belongs to. */
  session_group_id?: string | null;
  /** Fields the service adds, kept as they come. */
  [extra: string]: unknown;
}

/**
 * A message as a service sends it. `ts` is the provider's epoch-seconds timestamp and the `gts` cursor.
 * `id` and `task_id` are opaque strings (only compared); `chat_id` and `chat_thread_id` are UUIDs.
 */
export interface ListedMessage {
  /** Opaque: compared, never parsed. */
  id: string;
  /** The session; a list asked for one session may leave it out (Blocks' CI mock does). */
  chat_id?: string;
  /** Null for the live service's system notices (a sandbox warning): not part of the conversation. */
  chat_thread_id: string | null;
  /** The agent invocation; a list may leave it out. */
  task_id?: string;
  /** `user` or `assistant`. */
  role: Role;
  /** `message`, `final_message` (the turn's reply) or `tool_call`. */
  type: MessageType;
  /** The text (markdown; a tool call's JSON). */
  message: string;
  /** Epoch seconds; fractional on the live service. */
  ts: number | null;
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601. */
  updated_at: string;
  /** Fields the service adds, kept as they come. */
  [extra: string]: unknown;
}

/** A message of a session, as the client hands it on: `chat_id` filled in with the session asked for. */
export interface Message extends ListedMessage {
  /** The session. */
  chat_id: string;
}

/** The response of Send message: the user message just posted, plus links for its new thread. */
export interface SentMessage extends Message {
  _links: {
    self: Link;
    thread: Link | null;
    final_message: Link | null;
  };
}

/** Page metadata of a message list. */
export interface PageMeta {
  total: number;
  page: number;
  limit: number;
  total_pages: number;
}

/** One page of List session messages. */
export interface MessagePage {
  items: Message[];
  meta: PageMeta;
  _links?: {
    self?: Link;
    new_messages?: Link;
  };
}

/** An artifact record (live service): a plan iteration or a file, with a presigned download link. */
export interface Artifact {
  id: string;
  /** Presigned, on another host, valid for days: fetched without the key. */
  url: string;
  file_name: string | null;
  file_path?: string | null;
  file_size_in_kb?: number | null;
  mime_type?: string | null;
  /** 'plan' or 'file' today; kept as sent when the service adds others. */
  kind: string;
  plan_id: string | null;
  created_at: string;
  [extra: string]: unknown;
}

/** Profile request object (create and send). Its inner shapes are not described by the spec. */
export interface Profile {
  id?: string;
  config_values?: Record<string, unknown>;
  mcp_servers?: unknown[];
  config_merge_strategy?: string;
}

/** The live service's longest session title (CreateSessionBody.title). */
export const MAX_TITLE_LENGTH = 200;

/** Body of Create session: exactly one of agent_name, agent_id, profile. */
export interface CreateSessionBody {
  message: string;
  agent_name?: CoreAgent;
  agent_id?: string;
  profile?: Profile;
  is_private?: boolean;
  artifact_ids?: string[];
  /** The live service's (at most 200 characters); not in the document. */
  title?: string;
  /** The live service's: a session group's UUID; not in the document. */
  session_group_id?: string;
}

/** Body of Send message. */
export interface SendMessageBody {
  message: string;
  artifact_ids?: string[];
  profile?: Profile;
}

/** Query of List session messages. `role` repeated is understood by newer deployments of the live service. */
export interface ListQuery {
  type?: MessageType[];
  role?: Role | Role[];
  thread_id?: string;
  gts?: number;
  page?: number;
  limit?: number;
  direction?: 'asc' | 'desc';
}
