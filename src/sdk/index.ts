// The library's public entry (`import { Agents } from 'agents-cli'`): what it exports is the API, held by the
// report in api/agents-cli.api.md; everything else in src/ is internal.
export { Agents } from './agents.js';
export {
  AbortError,
  AgentsError,
  ApiError,
  AuthError,
  ExitCode,
  NotFoundError,
  SchemaMismatchError,
  TimeoutError,
  UsageError,
} from '../core/errors/agents-error.js';
export type {
  AgentsErrorInit,
  AgentsErrorOptions,
  ApiErrorInit,
  ApiErrorKind,
  ExitCodeValue,
  SchemaError,
  SchemaMismatchInit,
  TimeoutErrorInit,
} from '../core/errors/agents-error.js';
export type { Settled } from './replies.js';
export type {
  AgentsEvent,
  AgentsOptions,
  ArtifactContent,
  Attempt,
  Attempts,
  AttemptsOptions,
  BudgetOptions,
  CallOptions,
  ConfigOptions,
  CreateOptions,
  Duration,
  FollowOptions,
  JsonSchema,
  Landed,
  PullRequest,
  Reply,
  SchemaOptions,
  SendOptions,
  SessionView,
  ShowOptions,
  Turn,
  TurnRef,
  WaitOptions,
  WaitProgress,
} from './types.js';
export type {
  ListedMessage,
  Link,
  Message,
  MessageType,
  PullRequestRef,
  Role,
  Session,
  SessionLinks,
} from '../core/api/types.js';
