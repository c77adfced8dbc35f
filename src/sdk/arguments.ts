// A program's arguments, checked before anything is sent: each wrong one is a UsageError that names it (the
// CLI's own validators where it has them), so a bad call costs no request and no slot of the budget.
import { UsageError } from '../core/errors/agents-error.js';
import { validateAgent, validateApiKey, validateBaseUrl } from '../core/config/validators.js';
import { isUuid } from '../util/uuid.js';
import { MAX_TITLE_LENGTH, type CoreAgent } from '../core/api/types.js';
import { parseDuration } from '../util/duration.js';
import { MAX_SCHEMA_RETRIES, DEFAULT_SCHEMA_RETRIES } from '../core/sessions/structured-output.js';
import type { AgentsOptions, Duration, JsonSchema, SchemaOptions, TurnRef } from './types.js';

export function uuidArg(value: unknown, what: string): string {
  if (typeof value !== 'string' || !isUuid(value)) {
    throw new UsageError(`${what} must be a UUID, got ${shown(value)}`);
  }
  return value;
}

export function messageArg(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError('message must be a non-empty string');
  return value;
}

/** `timeout`: ms (a positive number) or a duration string; undefined for none; 0 where `zero` allows it. */
export function timeoutArg(value: Duration | undefined, zero = false): number | undefined {
  if (value === undefined) return undefined;
  if (zero && value === 0) return 0;
  const ms =
    typeof value === 'number'
      ? value > 0 && Number.isFinite(value)
        ? Math.ceil(value)
        : undefined
      : parseDuration(String(value));
  if (ms === undefined)
    throw new UsageError(
      `timeout must be a ${zero ? 'number of ms (0: look once)' : 'positive number of ms'} or a duration such as '20m', got ${shown(value)}`,
    );
  return ms;
}

export function signalArg(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal)) throw new UsageError('signal must be an AbortSignal');
  return value;
}

/** A turn reference: a Turn, `{ sessionId, threadId? }` or a session id. */
export function turnArg(ref: TurnRef): { sessionId: string; threadId: string | undefined; url?: string } {
  if (typeof ref === 'string') return { sessionId: uuidArg(ref, 'sessionId'), threadId: undefined };
  if (typeof ref !== 'object' || ref === null)
    throw new UsageError('a turn is a Turn, { sessionId, threadId? } or a session id');
  const threadId = ref.threadId === undefined ? undefined : uuidArg(ref.threadId, 'threadId');
  const url = 'url' in ref && typeof ref.url === 'string' ? ref.url : undefined;
  return { sessionId: uuidArg(ref.sessionId, 'sessionId'), threadId, url };
}

/** outputSchema and schemaRetries: the schema (compiled later) and the follow-ups allowed. */
export function schemaArgs(o: SchemaOptions): { schema: JsonSchema; retries: number } | undefined {
  if (o.outputSchema === undefined) {
    if (o.schemaRetries !== undefined) throw new UsageError('schemaRetries needs outputSchema');
    return undefined;
  }
  if (typeof o.outputSchema !== 'object' || o.outputSchema === null || Array.isArray(o.outputSchema)) {
    throw new UsageError('outputSchema must be a JSON Schema object');
  }
  const retries = o.schemaRetries ?? DEFAULT_SCHEMA_RETRIES;
  if (!Number.isInteger(retries) || retries < 0 || retries > MAX_SCHEMA_RETRIES) {
    throw new UsageError(`schemaRetries must be a whole number from 0 to ${MAX_SCHEMA_RETRIES}`);
  }
  return { schema: o.outputSchema, retries };
}

/** The agent of a create: a core agent's name or a custom agent's UUID, exactly one. */
export function agentArgs(
  agent: unknown,
  agentId: unknown,
): { agent_name: CoreAgent } | { agent_id: string } {
  if (agent !== undefined && agentId !== undefined) throw new UsageError('give agent or agentId, not both');
  if (agentId !== undefined) return { agent_id: uuidArg(agentId, 'agentId') };
  if (agent === undefined) throw new UsageError('no agent given: give agent (e.g. claude) or agentId');
  if (typeof agent !== 'string') throw new UsageError('agent must be a string');
  return { agent_name: validateAgent(agent) };
}

/** A session's title: a string of 1 to 200 characters (the live service's bound), or nothing. */
export function titleArg(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_TITLE_LENGTH) {
    throw new UsageError(
      `title must be a string of 1 to ${MAX_TITLE_LENGTH} characters, got ${shown(value)}`,
    );
  }
  return value;
}

/** The client's own options: a key that fits a header, a base URL the CLI would accept. */
export function clientArgs(o: AgentsOptions): { apiKey: string; baseUrl: string; warning?: string } {
  if (typeof o !== 'object' || o === null) throw new UsageError('new Agents() needs { apiKey, baseUrl }');
  if (typeof o.apiKey !== 'string') throw new UsageError('apiKey must be a string');
  if (typeof o.baseUrl !== 'string') throw new UsageError('baseUrl must be a string');
  const apiKey = validateApiKey(o.apiKey, 'apiKey');
  const { value, warning } = validateBaseUrl(o.baseUrl, 'baseUrl');
  return { apiKey, baseUrl: value, warning };
}

/** A value as a message may show it: short, and a string quoted. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return value === null ? 'null' : typeof value;
}
