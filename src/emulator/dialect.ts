// The ways the emulator answers: `spec`, the document to the letter; `live`, as Blocks' service does
// (live-service.md); `ci-mock`, as Blocks' CI mock. Handlers read as the spec and ask here where they differ.

export type DialectName = 'spec' | 'live' | 'ci-mock';

/** The live service's hosts: `_links` name one that is not the address the client called. */
export const LIVE_LINK_BASE = 'https://api.blocks.invalid';

/** The ways the services differ, as the handlers need them: the spec's, each with what another may do. */
const SPEC = {
  name: 'spec' as DialectName,
  /** Status of a create or a follow-up. */
  createdStatus: 201,
  /** Status of a refused body (no agent given, a bad field): 400 VALIDATION, or 422. */
  validationStatus: 400,
  /** Status of an id in the path that is no UUID: 404 like an unknown id, or 422 like other bad input. */
  badIdStatus: 404,
  /** The gateway: an unknown (wrong) key is 401 like a missing one, or 403. */
  wrongKeyStatus: 401 as 401 | 403,
  /** A 429 says when to come back. */
  retryAfter: false,
  /** `agent_name` may be `sisyphus`. */
  sisyphus: false,
  /** `pull_requests` items: strings, or `{url, status}` objects. */
  pullRequest: (url: string, _status: string): string | { url: string; status: string } => url,
  /** `plan_artifact_ids` and `session_group_id` on sessions. */
  sessionExtras: false,
  /** `session_html_url`: …/app/sessions/<id>, or …/app/<workspace>/sessions/<id>. */
  htmlUrl: (appUrl: string, _workspace: string, id: string) => `${appUrl}/app/sessions/${id}`,
  /** The origin `_links` hrefs name: the request's own, or the service's (another host). */
  linkBase: (base: string) => base,
  /** The list order when `direction` is omitted, and what it sorts by. */
  defaultDirection: 'desc' as 'asc' | 'desc',
  sortBy: 'created_at' as 'created_at' | 'ts',
  /** A list's `_links.self` keeps the query and `new_messages` keeps it adding `gts`, or both drop it. */
  linksKeepQuery: true,
  /** `ts` of stored messages: whole seconds, or fractional. */
  fractionalTs: false,
  /** Each finished thread's last `message` repeats the final's text. */
  duplicateFinal: false,
  /** A sandbox notice (`chat_thread_id: null`) after each final. */
  notices: false,
  /** A tool call's `message` text. */
  toolCall: (tool: string, input: string) => JSON.stringify({ tool, input }),
  /** The artifacts endpoint and plans. */
  artifacts: false,
  /** Message ids `m0`, `m1`, … and task ids `task-1`, `task-2`, … counted across the emulator; else UUIDs. */
  countedIds: false,
  /** A listed final reply carries no `chat_id` and no `task_id`. */
  bareFinal: false,
  /** The first message list asked for is answered 429 with `Retry-After: 1`. */
  firstListRateLimited: false,
  /** Which error bodies carry `code` next to `error` (the others are `{"error": …}` alone). */
  errorCodes: 'all' as 'all' | 'not-422' | 'none',
};

export type Dialect = typeof SPEC;

const LIVE: Dialect = {
  ...SPEC,
  name: 'live',
  createdStatus: 200,
  validationStatus: 422,
  badIdStatus: 422,
  wrongKeyStatus: 403,
  retryAfter: true,
  sisyphus: true,
  pullRequest: (url, status) => ({ url, status }),
  sessionExtras: true,
  htmlUrl: (appUrl, workspace, id) => `${appUrl}/app/${workspace}/sessions/${id}`,
  linkBase: () => LIVE_LINK_BASE,
  defaultDirection: 'asc',
  sortBy: 'ts',
  linksKeepQuery: false,
  fractionalTs: true,
  duplicateFinal: true,
  notices: true,
  // Both of the live service's shapes: a shell call with its arguments at the top, the others under `input`.
  toolCall: (tool, input) =>
    JSON.stringify(
      tool === 'Bash'
        ? { __name__: tool, command: input, description: 'Run the tests' }
        : { __name__: tool, input },
    ),
  artifacts: true,
  // live-service.md: its 422 is `{"error": …}` alone; what else it sends beside `error` is not known.
  errorCodes: 'not-422',
};

/** The host the `_links` of Blocks' CI mock name (reserved, never resolvable). */
export const CI_MOCK_LINK_BASE = 'https://api.example.invalid';

/** Blocks' CI mock (scripts/mock-api.mjs in BlocksOrg/blocks-ci-sessions), which users test against. */
const CI_MOCK: Dialect = {
  ...LIVE,
  name: 'ci-mock',
  badIdStatus: 404,
  wrongKeyStatus: 401,
  pullRequest: (url) => url,
  sessionExtras: false,
  linkBase: () => CI_MOCK_LINK_BASE,
  duplicateFinal: false,
  notices: false,
  toolCall: SPEC.toolCall,
  artifacts: false,
  countedIds: true,
  bareFinal: true,
  firstListRateLimited: true,
  errorCodes: 'none',
};

export const DIALECTS: Record<DialectName, Dialect> = { spec: SPEC, live: LIVE, 'ci-mock': CI_MOCK };
