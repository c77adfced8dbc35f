// Request validation: JSON bodies of the two POSTs and the query of the message lists. Pure.
import {
  CORE_AGENTS,
  MESSAGE_TYPES,
  ROLES,
  type CreateSessionBody,
  type ListQuery,
  type MessageType,
  type Role,
  type SendMessageBody,
} from '../core/api/types.js';

import { UUID_PATTERN as UUID } from '../util/uuid.js';
import { isObject } from '../util/json.js';

/** The spec's agents; the live service also takes `sisyphus` (CORE_AGENTS, the client's list, has all). */
const SPEC_AGENTS: readonly string[] = CORE_AGENTS.filter((a) => a !== 'sisyphus');

/** Either the value or the reason it was refused (one line for the `error` field). */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** Parses a JSON request body; the body must be an object. */
export function parseJsonObject(body: Buffer): Checked<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (err) {
    // The decoder's refusal is a TypeError; anything JSON.parse throws means the text is no JSON.
    return fail(`Request body is not valid ${err instanceof TypeError ? 'UTF-8' : 'JSON'}`);
  }
  return isObject(value) ? { ok: true, value } : fail('Request body must be a JSON object');
}

const isUuid = (v: unknown): boolean => typeof v === 'string' && UUID.test(v);

/** A field's check: its name, whether a given value is good, and the error; an absent field passes. */
type Rule = [field: string, good: (value: unknown) => boolean, error: string];

/** The error of the first rule the body breaks. */
function broken(body: Record<string, unknown>, rules: Rule[]): string | undefined {
  return rules.find(([field, good]) => body[field] !== undefined && !good(body[field]))?.[2];
}

const ARTIFACT_IDS: Rule = [
  'artifact_ids',
  (ids) => Array.isArray(ids) && ids.every(isUuid),
  'artifact_ids must be an array of UUIDs',
];

const PROFILE_FIELDS: Rule[] = [
  ['id', isUuid, 'profile.id must be a UUID'],
  ['config_values', isObject, 'profile.config_values must be an object'],
  ['mcp_servers', Array.isArray, 'profile.mcp_servers must be an array'],
  ['config_merge_strategy', (v) => typeof v === 'string', 'profile.config_merge_strategy must be a string'],
];

function checkMessage(body: Record<string, unknown>): string | undefined {
  if (typeof body.message !== 'string') return 'message is required and must be a string';
  return body.message.trim() === '' ? 'message must not be empty' : undefined;
}

function checkProfile(p: unknown): string | undefined {
  if (p === undefined) return undefined;
  return isObject(p) ? broken(p, PROFILE_FIELDS) : 'profile must be an object';
}

/** Create session: exactly one of agent_id / agent_name / profile (present with null counts as given). */
export function checkCreate(body: Record<string, unknown>, sisyphus: boolean): Checked<CreateSessionBody> {
  const given = (['agent_id', 'agent_name', 'profile'] as const).filter((k) => body[k] !== undefined);
  if (given.length !== 1) {
    return fail(`Exactly one of agent_id, agent_name, profile is required (got ${given.length})`);
  }
  const agents: readonly string[] = sisyphus ? CORE_AGENTS : SPEC_AGENTS;
  const problem =
    broken(body, [
      ['agent_name', (v) => agents.includes(v as string), `agent_name must be one of ${agents.join(', ')}`],
      ['agent_id', isUuid, 'agent_id must be a UUID'],
    ]) ??
    checkProfile(body.profile) ??
    checkMessage(body) ??
    broken(body, [
      ['is_private', (v) => typeof v === 'boolean', 'is_private must be a boolean'],
      ARTIFACT_IDS,
      // The live service's, not in the document.
      [
        'title',
        (v) => typeof v === 'string' && v.length >= 1 && v.length <= 200,
        'title must be a string of 1 to 200 characters',
      ],
      ['session_group_id', isUuid, 'session_group_id must be a UUID'],
    ]);
  return problem ? fail(problem) : { ok: true, value: body as unknown as CreateSessionBody };
}

/** Send message: message required; artifact_ids and profile optional. */
export function checkSend(body: Record<string, unknown>): Checked<SendMessageBody> {
  const problem = checkMessage(body) ?? broken(body, [ARTIFACT_IDS]) ?? checkProfile(body.profile);
  return problem ? fail(problem) : { ok: true, value: body as unknown as SendMessageBody };
}

/** A list query with its defaults filled in; `role` always a list. */
export type ParsedListQuery = Required<Omit<ListQuery, 'thread_id' | 'gts' | 'role'>> &
  Pick<ListQuery, 'thread_id' | 'gts'> & { role: Role[] };

/** How a server reads a parameter the document types as one string when it comes twice (README.md). */
export type RepeatedParams = 'first' | 'last' | 'all' | 'reject';

const SINGLE = ['role', 'thread_id', 'gts', 'page', 'limit', 'direction'] as const;

function positiveInt(raw: string): number | undefined {
  return /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}

/** The list query: `type` repeats to combine (a comma-separated list is 422); `thread_id` where it applies. */
export function parseListQuery(
  q: URLSearchParams,
  threaded: boolean,
  repeated: RepeatedParams,
  defaultDirection: 'asc' | 'desc',
): Checked<ParsedListQuery> {
  // One value of each single parameter, as the rules read a repeated one.
  const one = new Map<string, string | null>();
  let roles: string[] | undefined;
  for (const name of SINGLE) {
    const all = q.getAll(name);
    if (all.length <= 1 || (threaded && name === 'thread_id')) {
      one.set(name, all[0] ?? null);
      continue;
    }
    if (repeated === 'all' && name === 'role') roles = all;
    else if (repeated === 'first') one.set(name, all[0]!);
    else if (repeated === 'last') one.set(name, all.at(-1)!);
    else return fail(`${name} must be given at most once`);
  }
  const get = (name: (typeof SINGLE)[number]) => one.get(name) ?? null;
  const types = q.getAll('type');
  if (!types.every((t) => MESSAGE_TYPES.includes(t as MessageType))) {
    return fail(`type must be one of ${MESSAGE_TYPES.join(', ')} (repeat the parameter to combine)`);
  }
  roles ??= [get('role') ?? 'assistant'];
  if (!roles.every((r) => ROLES.includes(r as Role))) return fail(`role must be one of ${ROLES.join(', ')}`);
  const direction = get('direction') ?? defaultDirection;
  if (direction !== 'asc' && direction !== 'desc') return fail('direction must be asc or desc');
  const page = positiveInt(get('page') ?? '1');
  if (page === undefined || page < 1) return fail('page must be an integer >= 1');
  const limit = positiveInt(get('limit') ?? '50');
  if (limit === undefined || limit < 1 || limit > 100) return fail('limit must be an integer from 1 to 100');
  const rawGts = get('gts');
  if (rawGts !== null && !/^-?\d{1,15}(\.\d{1,9})?$/.test(rawGts))
    return fail('gts must be a number (epoch seconds)');
  const threadId = threaded ? null : get('thread_id');
  if (threadId !== null && !UUID.test(threadId)) return fail('thread_id must be a UUID');
  return {
    ok: true,
    value: {
      type: types.length > 0 ? [...new Set(types as MessageType[])] : ['message', 'final_message'],
      role: [...new Set(roles as Role[])],
      direction,
      page,
      limit,
      gts: rawGts === null ? undefined : Number(rawGts),
      thread_id: threadId ?? undefined,
    },
  };
}
