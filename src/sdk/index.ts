// The library's public entry (`import { Agents } from 'agents-cli'`): what it exports is the API, held by the
// report in api/agents-cli.api.md; everything else in src/ is internal.
export { Agents } from './agents.js';
// The error hierarchy's module and types.ts hold only what is public: the API report (api/) holds the list.
export * from '../core/errors/agents-error.js';
export type { Settled } from './waits.js';
export type * from './types.js';
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
