// The core's one door for the faces (the CLI, chat, the Action, `agents mcp`, `agents acp`); none imports a
// deep file (test/unit/house.test.ts). Every name is listed, never `export *`: the house test follows a
// face's imports by name, and the build leaves out a module none of whose names a bundle uses (`pureCore`).
// The records and what is said of them.
export {
  type AgentSelection,
  type Artifact,
  CORE_AGENTS,
  type CoreAgent,
  type CreateSessionBody,
  MAX_TITLE_LENGTH,
  type Message,
  type MessageType,
  type Profile,
  type PullRequestRef,
  type SendMessageBody,
  type SentMessage,
  type Session,
} from './api/types.js';
export { redact } from './api/redact.js';

// The one error hierarchy.
export {
  CliError,
  ExitCode,
  type ExitCodeValue,
  fromHttpError,
  isStop,
  toCliError,
  UsageError,
} from './errors/cli-error.js';
export { SchemaMismatchError, TimeoutError } from './errors/agents-error.js';

// Sessions: references, "last", the output schema and the structured output, a call's deadline.
export { notAWaitRef, parseWaitRef, type SessionRef, sessionRefArg, type WaitRef } from './sessions/refs.js';
export { groupOf, resolveSession, webAddress, withAttempt } from './sessions/resolve.js';
export { loadOutputSchema } from './sessions/output-schema.js';
export {
  DEFAULT_SCHEMA_RETRIES,
  MAX_SCHEMA_RETRIES,
  NO_JSON,
  type OutputSchema,
  schemaErrorLine,
  withSchemaInstruction,
} from './sessions/structured-output.js';
export { type Deadline, startDeadline, withDeadline } from './sessions/deadline.js';
export { DEFAULT_SHOW_LIMIT, readSession } from './sessions/read-session.js';
export { classify, type Conversation, type Entry, toolSummary } from './conversation/model.js';

// This machine's history: the known sessions, the turns' ends a library instance sees.
export { type History, historyName } from './state/history.js';
export {
  type KnownSession,
  MAX_SESSIONS,
  noteSessionFacts,
  readKnownSessions,
  type SessionFacts,
  sessionJson,
} from './state/known-sessions.js';
export { recordIn, recordTurnEnds, type TurnEnds } from './state/turn-ends.js';

// Settings, the environment a run is given, and the one client builder.
export {
  debugFromEnv,
  githubFiles,
  keychainFromEnv,
  maxResponseFromEnv,
  noBrowserReason,
  pagerCommand,
  pagerEnv,
  rateLimitFromEnv,
  requestTimeouts,
  sharedPacingFromEnv,
  timeFormat,
  truthy,
} from './config/env.js';
export {
  CONFIG_KEYS,
  type ConfigKey,
  validateAgent,
  validateApiKey,
  validateBaseUrl,
  validateBudgetUrl,
  validateConfigKey,
  validateConfigValue,
} from './config/validators.js';
export {
  describeSource,
  ENV_VARS,
  fromEnv,
  type KeyReading,
  requireBaseUrl,
  requireConnection,
  resolveProfile,
  resolveSettings,
  type SettingName,
  type Settings,
  type SettingSource,
} from './config/settings.js';
export { budgetDir, clientFromSettings, type BudgetSettings } from './config/client-from-settings.js';
export type { Env, InStream, IO, OutStream, Tuning } from './io/io.js';
export type { Host } from './sessions/host.js';
export { recordWorking, secretOf } from './sessions/host.js';
export { sessionPullRequests } from './sessions/pull-requests.js';
export { DEFAULT_SCHEDULE, nextDelay, type ScheduleOptions } from './poll/schedule.js';

// What a wait reports, as data.
export { RATE_LIMITED_LINE, failingLine } from './events/outage-lines.js';
export { githubOutputs, resultOutputs, stepSummary, type WaitResult } from './events/ci-result.js';
export { type LineOptions, lineProgress, type Progress } from './events/progress.js';
export { checkMessageSources, readMessage, readSchemaFile } from './io/message.js';

// The rest the CLI and chat use: the API client, budget stores, session work, conversation model, kept files.
export type { RetryNotice } from './api/backoff.js';
export { anySignal } from './api/call-deadline.js';
export type { ApiClient, ClientOptions } from './api/client.js';
export { isHttpError } from './api/errors.js';
export { ApiUrls } from './api/urls.js';
export type { BudgetStore } from './budget/budget-store.js';
export { budgetView, type BudgetView } from './budget/budget-view.js';
export { FileStore } from './budget/file-store.js';
export { DEFAULT_PACING, type PollShare } from './budget/limiter.js';
export { RedisStore } from './budget/redis-store.js';
export { BrokenState, type BudgetKeyRef } from './budget/state.js';
export { type ConfigFile, type KeyPlace, openConfigFile, type Profiles } from './config/config-file.js';
export { type KeyStoreOptions, removeKey, storeKey, type StoreMode } from './config/key-store.js';
export { maskKey, maskUrlPassword } from './config/mask.js';
export { notifyHow } from './config/notify-setting.js';
export { assistantMessagesOf } from './conversation/merge.js';
export { isFinalReply, latestTurn, latestTurnState } from './conversation/turn-state.js';
export { groupTurns } from './conversation/turns.js';
export { fileError } from './errors/file-errors.js';
export type { SessionItem, StatusRow } from './events/session-items.js';
export { type ChildEnd, runBounded } from './io/child.js';
export { processSpawner } from './io/spawner.js';
export { artifactRecord, downloadArtifact, latestPlanRecord } from './sessions/artifacts.js';
export { followThread, notifyEnd, outagePolicy, type ThreadWait, waitError } from './sessions/await-reply.js';
export { FanOut, resumeWait } from './sessions/fan-out.js';
export { ConversationFollow, readBacklog } from './sessions/follow-conversation.js';
export { fetchLatestTurnState, latestUserMessage, turnInProgress } from './sessions/latest.js';
export { type Posted, postTurn } from './sessions/post.js';
export {
  mismatchError,
  schemaFields,
  structuredReply,
  type StructuredResult,
} from './sessions/structured-reply.js';
export { waitResult } from './sessions/wait-result.js';
export { historyFor } from './state/history-for.js';
export { openStateFile, type StateFile } from './state/state-file.js';
