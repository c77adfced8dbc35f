// What each tool does, through the library's public entry (so that its regressions fail these tools'
// tests) and this machine's list of sessions; server.ts makes each answer a tool result.
import {
  CORE_AGENTS,
  DEFAULT_SCHEMA_RETRIES,
  DEFAULT_SHOW_LIMIT,
  historyName,
  loadOutputSchema,
  MAX_SCHEMA_RETRIES,
  MAX_SESSIONS,
  readKnownSessions,
  recordWorking,
  resolveSession,
  sessionJson,
  startDeadline,
  UsageError,
  type Host,
} from '../core/index.js';
import type { Agents, JsonSchema } from '../sdk/index.js';
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

/** What a tool does with its arguments, in the run that hosts it. */
export type Tool = (host: Host<Agents>, a: Arguments, call: ToolCallContext) => Promise<ToolOutcome>;

/** output_schema and schema_retries as the library takes them (ajv is loaded here, and only here). */
async function checkOf(
  a: Arguments,
  followUps: boolean,
): Promise<{ outputSchema: JsonSchema; schemaRetries: number } | undefined> {
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

/** A POST's options; with output_schema, the Turn it returns carries the schema and retries to the wait. */
function postOptions(call: ToolCallContext, check: Awaited<ReturnType<typeof checkOf>>) {
  return { signal: call.signal, timeout: REQUEST_DEADLINE_MS, ...check };
}

export const createSessionTool: Tool = async (host, a, call) => {
  const message = a.text('message');
  const agentName = a.agent('agent');
  const agentId = a.uuid('agent_id');
  const isPrivate = a.flag('is_private');
  const check = await checkOf(a, true);
  // output_schema implies a wait, as --output-schema implies --wait: follow-ups are sent while it waits.
  const seconds = a.waitSeconds(check ? DEFAULT_WAIT_SECONDS : 0);
  if (agentName !== undefined && agentId !== undefined)
    throw new UsageError('give agent or agent_id, not both');
  const agent = agentId === undefined ? (agentName ?? (await host.defaultAgent())) : undefined;
  if (agentId === undefined && agent === undefined) {
    throw new UsageError(
      'no agent given',
      `give agent (${CORE_AGENTS.join(', ')}) or agent_id, or set a default: agents config set agent claude`,
    );
  }
  const agents = await host.agents();
  const turn = await agents.create({
    ...(agentId !== undefined ? { agentId } : { agent }),
    message,
    ...(isPrivate ? { isPrivate: true } : {}),
    ...postOptions(call, check),
  });
  await recordWorking(host, turn, { agent, web: turn.url });
  return turnOutcome(host, { turn, url: turn.url ?? null, seconds, posted: true }, call);
};

export const sendMessageTool: Tool = async (host, a, call) => {
  const ref = a.session();
  const message = a.text('message');
  const check = await checkOf(a, true);
  const seconds = a.waitSeconds(check ? DEFAULT_WAIT_SECONDS : 0);
  const { id } = await resolveSession(ref, await host.history());
  const turn = await (await host.agents()).send(id, message, postOptions(call, check));
  await recordWorking(host, turn);
  const known = (await readKnownSessions(await host.history())).find((s) => s.id === id);
  return turnOutcome(host, { turn, url: known?.web ?? null, seconds, posted: true }, call);
};

export const waitForReply: Tool = async (host, a, call) => {
  const ref = a.session();
  const thread = a.uuid('thread');
  const seconds = a.waitSeconds(DEFAULT_WAIT_SECONDS);
  // wait_for_reply only checks the reply: it never sends a follow-up (as `agents wait --output-schema`).
  const check = await checkOf(a, false);
  const { id } = await resolveSession(ref, await host.history());
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
  return turnOutcome(host, { turn, url, seconds: left, asked: seconds, check: check?.outputSchema }, call);
};

export const showSession: Tool = async (host, a, call) => {
  const ref = a.session();
  const limit = a.number('limit', 1, 100_000, DEFAULT_SHOW_LIMIT, true);
  const { id } = await resolveSession(ref, await host.history());
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
};

export const listSessions: Tool = async (host, a) => {
  const limit = a.number('limit', 1, MAX_SESSIONS, 20, true);
  const history = await host.history();
  const { profile } = history;
  const sessions = (await readKnownSessions(history)).slice(0, limit);
  const lines = sessions.map((s) => [s.id, s.title ?? '', s.agent ?? '', s.state ?? ''].join('\t'));
  const text = sessions.length ? lines.join('\n') : `No sessions recorded ${historyName(history)} yet.`;
  return { structured: { profile, sessions: sessions.map(sessionJson) }, text };
};
