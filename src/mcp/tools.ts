// The tools `agents mcp` serves: fixed names (configurations and prompts rely on them), input schemas
// whose descriptions an agent can act on, and the output schema of each result's structuredContent.
import { CORE_AGENTS, DEFAULT_SCHEMA_RETRIES, MAX_SCHEMA_RETRIES, MAX_SESSIONS } from '../core/index.js';

export type ToolName =
  'create_session' | 'send_message' | 'wait_for_reply' | 'show_session' | 'list_sessions';

/** A tool as tools/list describes it (the MCP `Tool` shape). */
export interface ToolDefinition {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[] };
  outputSchema: { type: 'object'; properties: Record<string, object>; required?: string[] };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

/** The longest wait one call may ask for; a longer one is several calls. */
export const MAX_WAIT_SECONDS = 600;
/** wait_for_reply's default wait. */
export const DEFAULT_WAIT_SECONDS = 60;

/** An object schema: the names required (none: undefined), and its properties. */
function object(required: string[] | undefined, properties: Record<string, object>) {
  return { type: 'object' as const, properties, ...(required ? { required } : {}) };
}
const limit = (maximum: number, dflt: number, description: string) => ({
  type: 'integer',
  minimum: 1,
  maximum,
  default: dflt,
  description,
});

const SESSION = {
  type: 'string',
  description:
    'The session: its id (UUID), its web address (…/sessions/<id>), or "last" (the session this machine last created or sent to).',
};
const waitSeconds = (dflt: number, what: string, withSchema = '') => ({
  type: 'number',
  minimum: 0,
  maximum: MAX_WAIT_SECONDS,
  default: dflt,
  description: `Seconds to wait for ${what} (0 to ${MAX_WAIT_SECONDS}, default ${dflt}${withSchema}). When it has not come by then the result says status "running": call wait_for_reply to wait again.`,
});
/** create and send wait when output_schema is given, as the CLI's --output-schema implies --wait. */
const postWait = waitSeconds(0, 'the final reply', `; ${DEFAULT_WAIT_SECONDS} with output_schema`);
const SCHEMA_DRAFTS = 'draft 2020-12, or draft-07 or 2019-09 when its $schema says so';
/** output_schema on the tools that post a turn: asked for, checked, and asked for again. */
const ASK_SCHEMA = {
  type: 'object',
  description: `A JSON Schema (${SCHEMA_DRAFTS}) the answer must match. The message then ends with a fixed instruction asking for JSON that matches it; the JSON is taken from the final reply (the whole reply, or its last \`\`\`json block) and checked. When it does not match, a follow-up in the same session says what was wrong, up to schema_retries times, while wait_seconds lasts. The value comes back as structured_output; when no reply matched, status is "schema_mismatch" with schema_errors.`,
};
const SCHEMA_RETRIES = {
  type: 'integer',
  minimum: 0,
  maximum: MAX_SCHEMA_RETRIES,
  default: DEFAULT_SCHEMA_RETRIES,
  description: `With output_schema: follow-ups that ask again when the answer does not match (0 to ${MAX_SCHEMA_RETRIES}, default ${DEFAULT_SCHEMA_RETRIES}).`,
};
/** output_schema on wait_for_reply: the reply checked, nothing sent. */
const CHECK_SCHEMA = {
  type: 'object',
  description: `A JSON Schema (${SCHEMA_DRAFTS}) the reply must match: it is checked and its JSON returned as structured_output, or status "schema_mismatch" with schema_errors. Sends no follow-up (create_session and send_message with output_schema do).`,
};
const MESSAGE = { type: 'string', minLength: 1, description: 'The message to the agent (markdown).' };

const nullableString = { type: ['string', 'null'] };
const PULL_REQUESTS = {
  type: 'array',
  description: 'The pull requests of the session: addresses, or {url, status} objects.',
  items: {
    anyOf: [
      { type: 'string' },
      { type: 'object', properties: { url: { type: 'string' }, status: { type: 'string' } } },
    ],
  },
};
/** A turn's result; with output_schema, the value or what was wrong (as the CLI's --json result). */
const TURN_RESULT = object(
  ['session_id', 'thread_id', 'session_html_url', 'status', 'final_message', 'pull_requests'],
  {
    session_id: { type: 'string' },
    thread_id: { type: 'string', description: 'The turn (thread) this result is about.' },
    session_html_url: { ...nullableString, description: 'The session in the web dashboard.' },
    status: {
      type: 'string',
      enum: ['completed', 'running', 'schema_mismatch'],
      description:
        '"running": the agent is still working; call wait_for_reply to wait again. "schema_mismatch": the reply never matched output_schema.',
    },
    final_message: {
      ...nullableString,
      description: "The agent's final reply (the last one checked, with output_schema); null while running.",
    },
    pull_requests: PULL_REQUESTS,
    structured_output: { description: 'With output_schema, once matched: the JSON value of the reply.' },
    schema_attempts: {
      type: 'integer',
      description: 'With output_schema: the replies checked (the first, then one per follow-up).',
    },
    schema_errors: {
      type: 'array',
      description: 'With status "schema_mismatch": what was wrong with the last reply.',
      items: object(['path', 'message'], {
        path: { type: 'string', description: 'A JSON Pointer into the value; "" for the whole.' },
        message: { type: 'string' },
      }),
    },
  },
);

const sends = { readOnlyHint: false, destructiveHint: false, openWorldHint: true };
const reads = { readOnlyHint: true, destructiveHint: false, openWorldHint: true };

/** Every tool, in the order tools/list gives them. */
export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'create_session',
    title: 'Create a Blocks agent session',
    description:
      'Start a new session with a cloud agent on Blocks and give it its first message (a task). Returns the session id, the thread id of this turn and the web address; with wait_seconds, also the final reply and pull requests when the agent finished within that time, else status "running" (then call wait_for_reply). Long tasks take minutes: start them with wait_seconds 0 and wait later. With output_schema the answer must be JSON that matches it (asked for, checked and asked for again), returned as structured_output.',
    inputSchema: object(['message'], {
      message: MESSAGE,
      agent: {
        type: 'string',
        enum: [...CORE_AGENTS],
        description:
          'Which agent works on it. Give agent or agent_id, not both; with neither, the configured default agent.',
      },
      agent_id: { type: 'string', format: 'uuid', description: 'A specific agent of the workspace (UUID).' },
      is_private: { type: 'boolean', description: 'Hide the session from other workspace members.' },
      wait_seconds: postWait,
      output_schema: ASK_SCHEMA,
      schema_retries: SCHEMA_RETRIES,
    }),
    outputSchema: TURN_RESULT,
    annotations: sends,
  },
  {
    name: 'send_message',
    title: 'Send a follow-up to a Blocks session',
    description:
      'Send a follow-up message to an existing session. It starts a new turn (thread) and INTERRUPTS the turn in progress, if the agent is still working: wait for its reply first (wait_for_reply) unless you mean to stop it. Returns the new thread id; with wait_seconds, also the final reply and pull requests when the agent finished within that time, else status "running". With output_schema the answer must be JSON that matches it, as for create_session.',
    inputSchema: object(['session', 'message'], {
      session: SESSION,
      message: MESSAGE,
      wait_seconds: postWait,
      output_schema: ASK_SCHEMA,
      schema_retries: SCHEMA_RETRIES,
    }),
    outputSchema: TURN_RESULT,
    annotations: sends,
  },
  {
    name: 'wait_for_reply',
    title: "Wait for a Blocks agent's reply",
    description:
      'Wait for the final reply of a turn: the session\'s latest turn, or the thread given. Returns the reply and the pull requests; when wait_seconds runs out first it returns status "running" (not an error): call it again to keep waiting. With output_schema the reply is checked against it and its JSON returned as structured_output. Sends nothing to the session.',
    inputSchema: object(['session'], {
      session: SESSION,
      thread: {
        type: 'string',
        format: 'uuid',
        description:
          'The turn to wait for (a thread id from create_session or send_message); default the latest.',
      },
      wait_seconds: waitSeconds(DEFAULT_WAIT_SECONDS, 'the final reply'),
      output_schema: CHECK_SCHEMA,
    }),
    outputSchema: TURN_RESULT,
    annotations: reads,
  },
  {
    name: 'show_session',
    title: 'Show a Blocks session',
    description:
      'Read a session and its conversation (user and assistant messages, oldest first), as `agents show --json` reads it: the session (title, address, pull requests), the messages, and the thread still running, if any.',
    inputSchema: object(['session'], {
      session: SESSION,
      limit: limit(100_000, 50, 'The newest N messages (default 50).'),
    }),
    outputSchema: object(['session', 'messages', 'notices', 'running_thread_id'], {
      session: { type: 'object', description: 'The session as the service describes it.' },
      messages: { type: 'array', items: { type: 'object' }, description: 'Oldest first.' },
      notices: { type: 'array', items: { type: 'object' }, description: 'System notices, apart.' },
      running_thread_id: { ...nullableString, description: 'The turn the agent is still working on.' },
      truncated_to: { type: 'integer', description: 'Older messages were left out: the limit.' },
    }),
    annotations: reads,
  },
  {
    name: 'list_sessions',
    title: 'List Blocks sessions started here',
    description:
      'The sessions this machine created or sent to (the API cannot list sessions), the most recently used first, as `agents ls --json`: id, title, agent, last known state, addresses. Sends no request.',
    inputSchema: object(undefined, {
      limit: limit(MAX_SESSIONS, 20, `At most N sessions (default 20, at most ${MAX_SESSIONS}).`),
    }),
    outputSchema: object(['profile', 'sessions'], {
      profile: { type: 'string' },
      sessions: {
        type: 'array',
        items: object(['id'], {
          id: { type: 'string' },
          title: nullableString,
          agent: nullableString,
          state: nullableString,
          created_at: nullableString,
          last_used_at: nullableString,
          thread_id: nullableString,
          web_url: nullableString,
        }),
      },
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  },
];

/** The tools served: all, or (`agents mcp --read-only`) those that send nothing to a session. */
export function servedTools(readOnly: boolean): ToolDefinition[] {
  return TOOLS.filter((t) => !readOnly || t.annotations.readOnlyHint);
}
