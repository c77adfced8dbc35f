// What each tool does: post a turn, wait for its reply and read a session through the library's public
// entry (src/sdk, so that its regressions fail these tools' tests), list this machine's sessions. Each
// returns the result's data; tool-results.ts makes it a tool result.
import {
  CORE_AGENTS,
  DEFAULT_SCHEMA_RETRIES,
  DEFAULT_SHOW_LIMIT,
  historyName,
  loadOutputSchema,
  MAX_SCHEMA_RETRIES,
  MAX_SESSIONS,
  readKnownSessions,
  recordLast,
  resolveSession,
  sessionJson,
  startDeadline,
  UsageError,
  type CreateSessionBody,
  type SessionRef,
  type Host,
} from '../core/index.js';
import type { Agents, JsonSchema, Turn } from '../sdk/index.js';
import type { Arguments } from './arguments.js';
import { DEFAULT_WAIT_SECONDS } from './tools.js';
import { monotonicMs } from '../util/clock.js';
import {
  noAnswer,
  REQUEST_DEADLINE_MS,
  turnOutcome,
  type ToolOutcome,
  type ToolCallContext,
} from './turn-result.js';

/** output_schema and schema_retries as the library takes them, the schema checked here to name its argument. */
interface Check {
  outputSchema: JsonSchema;
  schemaRetries: number;
}

/** output_schema and schema_retries, read, and the schema compiled (ajv is loaded here, and only here). */
async function checkOf(a: Arguments, followUps: boolean): Promise<Check | undefined> {
  const source = a.object('output_schema');
  if (source === undefined) {
    if (followUps && a.given('schema_retries')) throw new UsageError('schema_retries needs output_schema');
    return undefined;
  }
  const retries = followUps
    ? a.number('schema_retries', 0, MAX_SCHEMA_RETRIES, DEFAULT_SCHEMA_RETRIES, true)
    : 0;
  // Compiled here first so that a bad schema is refused naming output_schema, not the library's outputSchema.
  await loadOutputSchema(source, 'output_schema');
  return { outputSchema: source, schemaRetries: retries };
}

/** What a tool posts: a new session, or a follow-up. */
type Post =
  { kind: 'create'; body: CreateSessionBody } | { kind: 'send'; sessionId: string; message: string };

/**
 * Posts a turn through the library's public entry within the request deadline (or the call's
 * cancellation), and records it as the profile's `last`. With output_schema the library asks for JSON in
 * the message, and the Turn it returns carries the schema and its retries to the wait.
 */
async function post(
  host: Host<Agents>,
  profile: string,
  turn: Post,
  call: ToolCallContext,
  check: Check | undefined,
): Promise<Turn> {
  const agents = await host.agents();
  const o = { signal: call.signal, timeout: REQUEST_DEADLINE_MS, ...check };
  const t =
    turn.kind === 'create'
      ? await agents.create({
          ...(turn.body.agent_id !== undefined
            ? { agentId: turn.body.agent_id }
            : { agent: turn.body.agent_name }),
          message: turn.body.message,
          ...(turn.body.is_private ? { isPrivate: true } : {}),
          ...o,
        })
      : await agents.send(turn.sessionId, turn.message, o);
  const facts = turn.kind === 'create' ? { agent: turn.body.agent_name, web: t.url } : {};
  const warning = await recordLast(
    await host.history(),
    { id: t.sessionId, threadId: t.threadId },
    { ...facts, state: 'working' },
  );
  if (warning) host.log.warn(warning);
  return t;
}

/** The session a reference names (`last` read from the state file). */
async function sessionOf(host: Host<Agents>, ref: SessionRef): Promise<{ id: string; profile: string }> {
  const profile = host.profile();
  const { id } = await resolveSession(ref, await host.history());
  return { id, profile };
}

export async function createSessionTool(
  host: Host<Agents>,
  a: Arguments,
  call: ToolCallContext,
): Promise<ToolOutcome> {
  const message = a.text('message');
  const agentName = a.agent('agent');
  const agentId = a.uuid('agent_id');
  const isPrivate = a.flag('is_private');
  const check = await checkOf(a, true);
  // output_schema implies a wait, as --output-schema implies --wait: follow-ups are sent while it waits.
  const seconds = a.waitSeconds(check ? DEFAULT_WAIT_SECONDS : 0);
  if (agentName !== undefined && agentId !== undefined)
    throw new UsageError('give agent or agent_id, not both');
  const body: CreateSessionBody = { message };
  if (agentId !== undefined) body.agent_id = agentId;
  else body.agent_name = agentName ?? (await host.defaultAgent());
  if (body.agent_id === undefined && body.agent_name === undefined) {
    throw new UsageError(
      'no agent given',
      `give agent (${CORE_AGENTS.join(', ')}) or agent_id, or set a default: agents config set agent claude`,
    );
  }
  if (isPrivate) body.is_private = true;
  const profile = host.profile();
  const posted = await post(host, profile, { kind: 'create', body }, call, check);
  const url = posted.url ?? null;
  return turnOutcome(
    host,
    {
      profile,
      turn: posted,
      sessionId: posted.sessionId,
      threadId: posted.threadId,
      url,
      seconds,
      posted: true,
    },
    call,
  );
}

export async function sendMessageTool(
  host: Host<Agents>,
  a: Arguments,
  call: ToolCallContext,
): Promise<ToolOutcome> {
  const ref = a.session();
  const given = a.text('message');
  const check = await checkOf(a, true);
  const seconds = a.waitSeconds(check ? DEFAULT_WAIT_SECONDS : 0);
  const { id, profile } = await sessionOf(host, ref);
  const posted = await post(host, profile, { kind: 'send', sessionId: id, message: given }, call, check);
  const known = (await readKnownSessions(await host.history())).find((s) => s.id === id);
  const t = {
    profile,
    turn: posted,
    sessionId: id,
    threadId: posted.threadId,
    url: known?.web ?? null,
    seconds,
    posted: true,
  };
  return turnOutcome(host, t, call);
}

export async function waitForReply(
  host: Host<Agents>,
  a: Arguments,
  call: ToolCallContext,
): Promise<ToolOutcome> {
  const ref = a.session();
  const thread = a.uuid('thread');
  const seconds = a.waitSeconds(DEFAULT_WAIT_SECONDS);
  // wait_for_reply only checks the reply: it never sends a follow-up (as `agents wait --output-schema`).
  const check = await checkOf(a, false);
  const { id, profile } = await sessionOf(host, ref);
  const agents = await host.agents();
  // wait_seconds bounds the whole call, the read of the session included (a key kept busy by others cannot
  // hold it); without `thread`, the library's wait finds the latest turn within the same time.
  const started = monotonicMs();
  const deadline = startDeadline(call.signal, seconds > 0 ? seconds * 1000 : REQUEST_DEADLINE_MS);
  let url: string | null;
  try {
    // The session first: an unknown one is a clear 404, and its address goes into the result.
    url = (await agents.session(id, { signal: deadline.signal })).session_html_url || null;
  } catch (err) {
    if (deadline.expired) throw noAnswer(seconds || REQUEST_DEADLINE_MS / 1000, id, false);
    throw err;
  } finally {
    deadline.dispose();
  }
  const left = seconds > 0 ? Math.max(0.001, seconds - (monotonicMs() - started) / 1000) : 0;
  const turn = thread === undefined ? { sessionId: id } : { sessionId: id, threadId: thread };
  const t = { profile, turn, sessionId: id, threadId: thread, url, seconds: left, asked: seconds };
  return turnOutcome(host, check ? { ...t, check: check.outputSchema } : t, call);
}

export async function showSession(
  host: Host<Agents>,
  a: Arguments,
  call: ToolCallContext,
): Promise<ToolOutcome> {
  const ref = a.session();
  const limit = a.number('limit', 1, 100_000, DEFAULT_SHOW_LIMIT, true);
  const { id } = await sessionOf(host, ref);
  const agents = await host.agents();
  const view = await agents.show(id, { limit, signal: call.signal, timeout: REQUEST_DEADLINE_MS });
  const messages = view.turns.flatMap((t) => t.messages);
  const structured: Record<string, unknown> = {
    session: view.session,
    messages,
    notices: view.notices,
    running_thread_id: view.runningThreadId ?? null,
  };
  if (view.truncatedTo !== undefined) structured.truncated_to = view.truncatedTo;
  const lines = messages.map((m) => `${m.role === 'user' ? 'user' : 'assistant'}: ${m.message}`);
  const head = `${view.session.title || '(untitled)'} (session ${view.session.id}, ${view.runningThreadId ? 'the agent is working' : 'idle'})`;
  return { structured, text: [head, ...lines].join('\n\n') };
}

export async function listSessions(host: Host<Agents>, a: Arguments): Promise<ToolOutcome> {
  const limit = a.number('limit', 1, MAX_SESSIONS, 20, true);
  const history = await host.history();
  const { profile } = history;
  const sessions = (await readKnownSessions(history)).slice(0, limit);
  const lines = sessions.map((s) => [s.id, s.title ?? '', s.agent ?? '', s.state ?? ''].join('\t'));
  const text = sessions.length ? lines.join('\n') : `No sessions recorded ${historyName(history)} yet.`;
  return { structured: { profile, sessions: sessions.map(sessionJson) }, text };
}
