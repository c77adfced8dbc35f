// The shapes a program hands the library and gets back: camelCase where ours, the API's names in its records.
import type { AgentsError } from '../core/errors/agents-error.js';
import type { Message, Session } from '../core/api/types.js';
import type { Tuning } from '../core/io/io.js';

/** A duration: milliseconds, or a string such as `'90s'`, `'20m'`, `'1h30m'`. */
export type Duration = number | string;

/** The key's request budget (100 a minute by default), shared by every process on the machine that uses it. */
export interface BudgetOptions {
  /** Requests per window this machine may send with the key. Default 100, the service's limit. */
  limit?: number;
  /** The window in ms. Default 60 000 (a minute); another only for a server with another window. */
  windowMs?: number;
  /**
   * Where the machine's shared budget file lives. Default: the CLI's own (`<state dir>/pacing`), so that a
   * program and `agents` commands on one machine share the key's budget.
   */
  dir?: string;
  /** `false`: pace this process alone, sharing nothing (no file, no Redis). Default true. */
  shared?: boolean;
  /** Share the budget through this Redis (`redis://…`, `rediss://…`) with every machine of a fleet. */
  url?: string;
}

/** What an {@link Agents} client is made with. */
export interface AgentsOptions {
  /** The Blocks API key. It goes into the Authorization header, and never into an error or event. */
  apiKey: string;
  /** The service's base URL, e.g. `https://api.blocks.team` (without `/rest/v1`). */
  baseUrl: string;
  /** The key's budget (on by default, shared through the machine's file); `false` paces nothing. */
  budget?: BudgetOptions | false;
  /** A Redis that shares the budget across machines: short for `budget: { url }`. */
  budgetUrl?: string;
  /** Told of progress: retries, waits for a slot of the budget, polls that failed and will be tried again. */
  onEvent?: (event: AgentsEvent) => void;
  /**
   * Where the proxy variables (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`) and the state directory are read.
   * Default `process.env`.
   */
  env?: Record<string, string | undefined>;
  /**
   * Longest wait for an answer's headers, and between chunks of its body, in ms; one attempt's whole exchange
   * ends at twice this. Default 30 000. A call retries what may pass (up to 6 times, or through an outage of a
   * service that answered for 60 s, or until its `timeout`), and its error then says how many attempts it made
   * over how long.
   */
  responseTimeoutMs?: number;
  /** @internal The CLI's own callers (agents mcp) pass a run's tuning: its retries, poll schedule, pacing. */
  tuning?: Pick<Tuning, 'retry' | 'schedule' | 'pacing'>;
}

/** What {@link Agents.fromConfig} reads: the CLI's settings (environment, then the profile). */
export interface ConfigOptions {
  /** The config profile; default `AGENTS_PROFILE`, then `default`. */
  profile?: string;
  /** Where the settings are read from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Told of progress (see {@link AgentsOptions.onEvent}). */
  onEvent?: (event: AgentsEvent) => void;
}

/** What every call takes. */
export interface CallOptions {
  /** Cancels the call: it rejects with an {@link AbortError} and sends nothing more. */
  signal?: AbortSignal;
  /** Bounds the whole call (ms or `'20m'`); a {@link TimeoutError} when it runs out. */
  timeout?: Duration;
}

/** A JSON Schema, as an object. */
export type JsonSchema = Record<string, unknown>;

/** What a turn's reply must match, and how often to ask again when it does not. */
export interface SchemaOptions {
  /** The reply must hold JSON matching this schema (draft 2020-12, 2019-09 or 07). */
  outputSchema?: JsonSchema;
  /** Follow-ups asking for a corrected answer (0 to 10; default 2). Only with `outputSchema`. */
  schemaRetries?: number;
}

/** A new session: its agent and first message. */
export interface CreateOptions extends CallOptions, SchemaOptions {
  /** One of the core agents (`claude`, `codex`, …). Give `agent` or `agentId`. */
  agent?: string;
  /** A custom agent's UUID. */
  agentId?: string;
  /** The task. */
  message: string;
  /** Only the creator sees the session. */
  isPrivate?: boolean;
  /**
   * The session's title, 1 to 200 characters. Without it the service names the session after the message.
   * Sent only when given (the live service takes it; the API's document does not name it).
   */
  title?: string;
  /** File the session under this session group (a UUID). Sent only when given, as `title` is. */
  sessionGroupId?: string;
}

/** {@link Agents.createAttempts}: one task as several sessions in one new session group (best of N). */
export interface AttemptsOptions extends Omit<CreateOptions, 'sessionGroupId'> {
  /** How many sessions: 2 to 5. */
  attempts: number;
}

/** One attempt of {@link Agents.createAttempts}: its turn, or the error its create ended with. */
export type Attempt =
  | { attempt: number; turn: Turn; error?: undefined }
  | { attempt: number; turn?: undefined; error: AgentsError };

/** What {@link Agents.createAttempts} made: the new session group and each attempt, the first first. */
export interface Attempts {
  /** The session group's id (a UUID made by the client, sent as `session_group_id`). */
  groupId: string;
  /** Each attempt asked for, in order: its turn, or why its create failed. */
  attempts: Attempt[];
}

/** A follow-up. */
export interface SendOptions extends CallOptions, SchemaOptions {}

/**
 * A turn the service took: the session, its thread (the turn), and the session's web address when known.
 * Pass it to {@link Agents.wait}, {@link Agents.follow} or {@link Agents.replies}.
 */
export interface Turn {
  /** The session (a UUID). */
  sessionId: string;
  /** The turn's thread (a UUID). */
  threadId: string;
  /** The session's page in the Blocks dashboard. */
  url: string | undefined;
  /**
   * {@link Agents.create}'s turn: the new session's record as the service returned it (its title, its
   * fields as the API names them).
   */
  session?: Session;
  /** {@link Agents.send}'s turn: the follow-up message as the service stored it. */
  sent?: Message;
}

/** What a wait takes: a {@link Turn}, or a session id (its latest turn). */
export type TurnRef = Turn | { sessionId: string; threadId?: string } | string;

/** A wait's options. */
export interface WaitOptions extends CallOptions {
  /**
   * Read the session once the reply came, for its pull requests (one more request). Default true; false
   * leaves `pullRequests` empty, which saves a request a reply when the key's budget is tight.
   */
  pullRequests?: boolean;
  /** Check the reply against this schema (nothing is sent: a turn created with one is also asked again). */
  outputSchema?: JsonSchema;
  /**
   * Told after each poll the service answered, with the time waited so far: for a progress bar, or to
   * tell a caller the wait is alive.
   */
  onProgress?: (progress: WaitProgress) => void;
  /**
   * Bounds the whole wait (ms or `'20m'`); a {@link TimeoutError} when it runs out. `0`: look once (one
   * request), without waiting: the reply if it is already there (checked, with a schema, and never asked
   * for again), else a {@link TimeoutError} at once.
   */
  timeout?: Duration;
}

/** A wait's progress (see {@link WaitOptions.onProgress}). */
export interface WaitProgress {
  /** The session waited on. */
  sessionId: string;
  /** The turn waited on: after a schema's follow-up, the follow-up's. */
  threadId: string;
  /** Milliseconds since the wait began. */
  waitedMs: number;
}

/** A pull request the session opened. */
export interface PullRequest {
  /** The pull request's page. */
  url: string;
  /** `open`, `merged`, … when the service says. */
  status?: string;
}

/** A turn's final reply. */
export interface Reply<T = unknown> {
  /** The session. */
  sessionId: string;
  /** The turn the reply ends (a follow-up's, when a schema's check asked again). */
  threadId: string;
  /** The reply's text (markdown). */
  text: string;
  /** The final message as the service stored it. */
  message: Message;
  /** The session's pull requests once the turn ended. */
  pullRequests: PullRequest[];
  /** The session's page in the Blocks dashboard. */
  url: string | undefined;
  /** With a schema: the JSON value that matched it. */
  output?: T;
  /** With a schema: replies checked (the first, and one per follow-up). */
  attempts?: number;
}

/** A follow's options. */
export interface FollowOptions extends CallOptions {
  /** Also yield the agent's tool calls. */
  tools?: boolean;
}

/** One message of a turn as it lands. */
export interface Landed {
  /** `message`: the agent's progress; `tool`: a tool call (with `tools: true`); `final`: the reply, last. */
  kind: 'message' | 'tool' | 'final';
  /**
   * The text: a message's as the agent wrote it; for a tool call, one readable line as the CLI prints it,
   * `⚙ Read  src/a.ts` (its name and arguments, or its raw text when it could not be decoded), whose raw
   * record stays in `message`.
   */
  text: string;
  /** A tool call's name and arguments, when they could be decoded. */
  tool?: { name: string; input: string };
  /** The message as the service stored it (a tool call's raw record, as sent). */
  message: Message;
  /**
   * On the final: its text is the message yielded just before it, word for word (the live service stores
   * each reply twice, as the turn's last `message` and as its `final_message`): a reader shows it once.
   */
  repeats?: true;
}

/** A session and its turns. */
export interface SessionView {
  /** The session's record. */
  session: Session;
  /** Its turns in order, one per thread, each with its messages oldest first. */
  turns: { threadId: string; number: number; messages: Message[] }[];
  /** The latest turn, when the agent is still on it. */
  runningThreadId: string | undefined;
  /** System notices (no thread). */
  notices: Message[];
  /** With `limit`: older messages were left out, the conversation cut to this many. */
  truncatedTo?: number;
}

/** What {@link Agents.show} reads. */
export interface ShowOptions extends CallOptions {
  /** Also read the tool calls. */
  tools?: boolean;
  /** Only the newest `limit` messages of the conversation (default: all of it). */
  limit?: number;
}

/** An artifact's bytes and what they are. */
export interface ArtifactContent {
  /** The artifact's id. */
  id: string;
  /** `plan`, `file`, … as the service says. */
  kind: string;
  /** The content, exactly as stored. */
  bytes: Uint8Array;
  /** The Content-Type the storage answered with, when it said. */
  contentType: string | undefined;
}

/** Progress a program may show or log: none of it needs an answer. */
export type AgentsEvent =
  | {
      type: 'retry';
      /** The failure being retried, one line. */
      reason: string;
      attempt: number;
      maxRetries: number;
      delayMs: number;
      /** A 429: retried until the call's timeout, not counted against maxRetries. */
      rateLimited: boolean;
    }
  | { type: 'paced'; limit: number; windowMs: number }
  | { type: 'poll-failed'; reason: string; rateLimited: boolean; sessionId: string }
  | { type: 'schema-retry'; sessionId: string; attempt: number; of: number }
  | { type: 'budget'; message: string }
  | { type: 'warning'; message: string };
