// The core's one door for the faces (the CLI, chat, the Action, `agents mcp`, `agents acp`): what a face may
// use of the core beside the library's public entry (src/sdk/index.ts): the records' types, the errors,
// session references and this machine's history, the settings and the one client builder. A face reaches
// the service through the library or, for the CLI, a client built here; never through a deep file
// (test/unit/house.test.ts holds it). Every name is listed, never `export *`: the house test follows a
// face's imports through this file by name, so the Action keeps clear of the HTTP client.

// The records and what is said of them.
export {
  CORE_AGENTS,
  MAX_TITLE_LENGTH,
  type AgentSelection,
  type CoreAgent,
  type CreateSessionBody,
  type PullRequestRef,
  type Session,
} from './api/types.js';
export { redact } from './api/redact.js';

// The one error hierarchy.
export { CliError, ExitCode, UsageError, toCliError } from './errors/cli-error.js';
export { SchemaMismatchError, TimeoutError } from './errors/agents-error.js';

// Sessions: references, "last", the output schema and the structured output, a call's deadline.
export { notASession, parseSessionRef, type SessionRef } from './sessions/refs.js';
export { resolveSession } from './sessions/resolve.js';
export { loadOutputSchema } from './sessions/output-schema.js';
export {
  DEFAULT_SCHEMA_RETRIES,
  MAX_SCHEMA_RETRIES,
  NO_JSON,
  schemaErrorLine,
} from './sessions/structured-output.js';
export { startDeadline } from './sessions/deadline.js';
export { DEFAULT_SHOW_LIMIT } from './sessions/read-session.js';
export { classify, type Entry } from './conversation/model.js';

// This machine's history: the last session, the known sessions, the turns' ends a library instance sees.
export { historyName } from './state/history.js';
export { recordLast, type UsedSession } from './state/last-session.js';
export {
  MAX_SESSIONS,
  noteSessionFacts,
  readKnownSessions,
  sessionJson,
  type KnownSession,
} from './state/known-sessions.js';
export { recordIn } from './state/turn-ends.js';

// Settings, the environment a run is given, and the one client builder.
export { githubFiles, rateLimitFromEnv, sharedPacingFromEnv } from './config/env.js';
export { validateAgent, validateApiKey, validateBaseUrl, validateBudgetUrl } from './config/validators.js';
export { requireConnection } from './config/settings.js';
export {
  budgetDir,
  clientFromSettings,
  type BudgetSettings,
  type ClientHooks,
  type ClientSettings,
} from './config/client-from-settings.js';
export type { Env, Tuning } from './io/io.js';
export type { Host } from './sessions/host.js';
export { DEFAULT_SCHEDULE, type ScheduleOptions } from './poll/schedule.js';

// What a wait reports, as data.
export { RATE_LIMITED_LINE, failingLine } from './events/outage-lines.js';
export { resultOutputs, stepSummary, type WaitResult } from './events/ci-result.js';
export { lineProgress } from './events/progress.js';
export { readMessage } from './io/message.js';
export { readSchemaFile } from './io/schema-file.js';
