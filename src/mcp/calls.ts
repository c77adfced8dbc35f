// What each tool does: post a turn and read a session through the library's public entry (src/sdk, so that
// its regressions fail these tools' tests), wait for a reply over src/sessions' one wait, list this machine's
// sessions. Each returns the result's data; answers.ts makes it a tool result.
import type { Context } from '../run/context.js';
import type { ApiClient } from '../api/client.js';
import type { CreateSessionBody } from '../api/types.js';
import { CliError, UsageError } from '../errors/cli-error.js';
import { CORE_AGENTS } from '../api/types.js';
import { startDeadline } from '../sessions/deadline.js';
import { resolveSession } from '../sessions/resolve.js';
import { latestUserMessage } from '../sessions/latest.js';
import { DEFAULT_SHOW_LIMIT } from '../sessions/read-session.js';
import { recordLast } from '../state/last-session.js';
import type { Turn } from '../sdk/index.js';
import { agentsOf } from '../host/agents-of.js';
import { awaitTurn, type TurnOutcome, type TurnWait } from '../sessions/turn-outcome.js';
import {
  DEFAULT_SCHEMA_RETRIES,
  schemaErrorLine,
  MAX_SCHEMA_RETRIES,
  problemSummary,
  withSchemaInstruction,
} from '../sessions/answer-json.js';
import { schemaFields, type StructuredResult } from '../sessions/structured-reply.js';
import { MAX_SESSIONS, noteSessionFacts, readKnownSessions } from '../state/known-sessions.js';
import { sessionJson } from '../output/render-sessions.js';
import type { Arguments } from './arguments.js';
import { DEFAULT_WAIT_SECONDS } from './tools.js';
import type { SessionRef } from '../input/session-ref.js';
import { monotonicMs } from '../util/clock.js';

/**
 * How long a create or send POST, or a read, may take before the call gives up on it: more than a minute,
 * the window of the key's budget, which a request may have to wait out for its slot.
 */
export const REQUEST_DEADLINE_MS = 120_000;

/** One tool call as the server hands it over: its cancel signal, and progress when the client asked. */
export interface ToolCallContext {
  signal: AbortSignal;
  /** Whether the server is ending (stdin closed), as opposed to the client cancelling the call. */
  ending?: () => boolean;
  /** Told of the wait so far (seconds waited, of how many). */
  progress?: (waited: number, total: number, message: string) => void;
}

/**
 * A turn's result (the structuredContent of the tools that post or wait). With output_schema it gains the
 * CLI's --json fields: `structured_output` and `schema_attempts`, or `status: "schema_mismatch"` with
 * `schema_errors` (see schemaFields).
 */
export interface TurnResult {
  session_id: string;
  thread_id: string;
  session_html_url: string | null;
  status: 'completed' | 'running' | 'schema_mismatch';
  final_message: string | null;
  pull_requests: unknown[];
  schema_attempts?: number;
}

/** What a call returns: the data, and a first line for a reader of the text. */
export interface ToolAnswer {
  structured: Record<string, unknown>;
  text: string;
}

/** A turn under way: where it is, and how long to wait for it. */
interface TurnAt {
  client: ApiClient;
  profile: string;
  sessionId: string;
  threadId: string;
  url: string | null;
  seconds: number;
  /** The wait the caller asked for, when `seconds` is what is left of it. */
  asked?: number;
  /** The turn was just posted: with no time to wait, it is running (nothing is asked). */
  posted?: boolean;
  /** output_schema: the reply checked, and asked for again up to its retries. */
  check?: Check;
}

/** output_schema compiled, and the follow-ups allowed (0 on wait_for_reply: it only checks). */
type Check = NonNullable<TurnWait['check']>;

/** A wait that got no answer from the service at all before its time ran out (a busy key, a slow service). */
function noAnswer(seconds: number, sessionId: string, rateLimited: boolean): CliError {
  return new CliError(
    `no answer from the service in ${seconds} s while waiting on session ${sessionId}${rateLimited ? ' (429: the key is busy)' : ''}`,
    {
      hint: "the key's 100 requests a minute may be spent by other processes or machines (429), or the service is slow; the session goes on: call wait_for_reply again later",
    },
  );
}

/**
 * Waits (or looks once, with 0 seconds) for the turn's reply and makes the result; with output_schema the
 * reply is checked (and asked for again) as the CLI's --output-schema does, and the result says how.
 */
async function turnAnswer(ctx: Context, t: TurnAt, call: ToolCallContext): Promise<ToolAnswer> {
  const outcome: TurnOutcome =
    t.posted && t.seconds === 0
      ? { status: 'running', threadId: t.threadId, answered: 1, rateLimited: false, attempts: 0 }
      : await awaitTurn({
          client: t.client,
          sessionId: t.sessionId,
          threadId: t.threadId,
          seconds: t.seconds,
          signal: call.signal,
          schedule: ctx.schedule,
          onPoll: (waited) =>
            call.progress?.(waited, t.asked ?? t.seconds, `waiting for the reply on session ${t.sessionId}`),
          warn: (line) => ctx.log.warn(line),
          ...(t.check ? { check: { ...t.check, books: { state: ctx.state, profile: t.profile } } } : {}),
        });
  if (outcome.status === 'running' && outcome.answered === 0) {
    throw noAnswer(t.asked ?? t.seconds, t.sessionId, outcome.rateLimited);
  }
  const result: TurnResult = {
    session_id: t.sessionId,
    thread_id: outcome.threadId,
    session_html_url: t.url,
    status: outcome.status,
    final_message: outcome.status === 'completed' ? outcome.final.message : null,
    pull_requests: outcome.status === 'completed' ? outcome.pullRequests : [],
  };
  if (outcome.status === 'running') {
    if (outcome.attempts > 0) result.schema_attempts = outcome.attempts;
    const asked =
      outcome.attempts > 0 ? ` Its answer did not match output_schema and was asked for again.` : '';
    const text = `The agent is still working (session ${t.sessionId}, thread ${outcome.threadId}).${asked} ToolCallContext wait_for_reply to wait for its reply.`;
    return { structured: { ...result }, text };
  }
  const failed = await noteSessionFacts(ctx.state, t.profile, [{ id: t.sessionId, state: 'finished' }]);
  if (failed) ctx.log.warn(failed);
  const { checked } = outcome;
  if (checked === undefined) return { structured: { ...result }, text: outcome.final.message };
  return { structured: { ...result, ...schemaFields(checked) }, text: checkedText(checked) };
}

/** A checked reply as text: the value as one line of JSON, or what was wrong and the last reply. */
function checkedText(checked: StructuredResult): string {
  if (checked.matched) return JSON.stringify(checked.value);
  const tries = checked.attempts === 1 ? '1 try' : `${checked.attempts} tries`;
  const { problem } = checked;
  const errors = problem.kind === 'mismatch' ? problem.errors.map((e) => `\n- ${schemaErrorLine(e)}`) : [];
  return `The agent's answer did not match output_schema after ${tries} (${problemSummary(problem)}).${errors.join('')}\n\nIts last reply:\n${checked.final.message}`;
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
  const { loadAnswerSchema } = await import('../sessions/answer-schema.js');
  return { schema: await loadAnswerSchema(source, 'output_schema'), retries };
}

/** What a tool posts: a new session, or a follow-up. */
type Post =
  { kind: 'create'; body: CreateSessionBody } | { kind: 'send'; sessionId: string; message: string };

/**
 * Posts a turn through the library's public entry within the request deadline (or the call's
 * cancellation), and records it as the profile's `last`.
 */
async function post(ctx: Context, profile: string, turn: Post, call: ToolCallContext): Promise<Turn> {
  const agents = await agentsOf(ctx);
  const o = { signal: call.signal, timeout: REQUEST_DEADLINE_MS };
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
    ctx.state,
    profile,
    { id: t.sessionId, threadId: t.threadId },
    { ...facts, state: 'working' },
  );
  if (warning) ctx.log.warn(warning);
  return t;
}

/** The session a reference names (`last` read from the state file). */
async function sessionOf(ctx: Context, ref: SessionRef): Promise<{ id: string; profile: string }> {
  const profile = ctx.profile();
  const { id } = await resolveSession(ref, ctx.state, profile);
  return { id, profile };
}

export async function createSessionTool(
  ctx: Context,
  a: Arguments,
  call: ToolCallContext,
): Promise<ToolAnswer> {
  const message = a.text('message');
  const agentName = a.agent('agent');
  const agentId = a.uuid('agent_id');
  const isPrivate = a.flag('is_private');
  const check = await checkOf(a, true);
  // output_schema implies a wait, as --output-schema implies --wait: follow-ups are sent while it waits.
  const seconds = a.waitSeconds(check ? DEFAULT_WAIT_SECONDS : 0);
  if (agentName !== undefined && agentId !== undefined)
    throw new UsageError('give agent or agent_id, not both');
  const body: CreateSessionBody = { message: check ? withSchemaInstruction(message, check.schema) : message };
  if (agentId !== undefined) body.agent_id = agentId;
  else body.agent_name = agentName ?? (await ctx.settings(['agent'])).agent;
  if (body.agent_id === undefined && body.agent_name === undefined) {
    throw new UsageError(
      'no agent given',
      `give agent (${CORE_AGENTS.join(', ')}) or agent_id, or set a default: agents config set agent claude`,
    );
  }
  if (isPrivate) body.is_private = true;
  const client = await ctx.client();
  const profile = ctx.profile();
  const posted = await post(ctx, profile, { kind: 'create', body }, call);
  const url = posted.url ?? null;
  return turnAnswer(
    ctx,
    {
      client,
      profile,
      sessionId: posted.sessionId,
      threadId: posted.threadId,
      url,
      seconds,
      posted: true,
      check,
    },
    call,
  );
}

export async function sendMessageTool(
  ctx: Context,
  a: Arguments,
  call: ToolCallContext,
): Promise<ToolAnswer> {
  const ref = a.session();
  const given = a.text('message');
  const check = await checkOf(a, true);
  const seconds = a.waitSeconds(check ? DEFAULT_WAIT_SECONDS : 0);
  const { id, profile } = await sessionOf(ctx, ref);
  const client = await ctx.client();
  const message = check ? withSchemaInstruction(given, check.schema) : given;
  const posted = await post(ctx, profile, { kind: 'send', sessionId: id, message }, call);
  const known = (await readKnownSessions(ctx.state, profile)).find((s) => s.id === id);
  const t = {
    client,
    profile,
    sessionId: id,
    threadId: posted.threadId,
    url: known?.web ?? null,
    seconds,
    posted: true,
    check,
  };
  return turnAnswer(ctx, t, call);
}

export async function waitForReply(ctx: Context, a: Arguments, call: ToolCallContext): Promise<ToolAnswer> {
  const ref = a.session();
  const thread = a.uuid('thread');
  const seconds = a.waitSeconds(DEFAULT_WAIT_SECONDS);
  // wait_for_reply only checks the reply: it never sends a follow-up (as `agents wait --output-schema`).
  const check = await checkOf(a, false);
  const { id, profile } = await sessionOf(ctx, ref);
  const client = await ctx.client();
  // wait_seconds bounds the whole call, the look-ups included (a key kept busy by others cannot hold it).
  const started = monotonicMs();
  const deadline = startDeadline(call.signal, seconds > 0 ? seconds * 1000 : REQUEST_DEADLINE_MS);
  let threadId = thread;
  let url: string | null = null;
  try {
    // The session first: an unknown one is a clear 404, and its address goes into the result.
    const session = await client.getSession(id, { signal: deadline.signal });
    url = session.session_html_url || null;
    threadId ??=
      (await latestUserMessage(client, { sessionId: id }, { signal: deadline.signal }))?.chat_thread_id ??
      undefined;
  } catch (err) {
    if (deadline.expired) throw noAnswer(seconds || REQUEST_DEADLINE_MS / 1000, id, false);
    throw err;
  } finally {
    deadline.dispose();
  }
  if (threadId === undefined) {
    throw new UsageError(`session ${id} has no message yet`, 'send it one with send_message');
  }
  const left = seconds > 0 ? Math.max(0.001, seconds - (monotonicMs() - started) / 1000) : 0;
  return turnAnswer(
    ctx,
    { client, profile, sessionId: id, threadId, url, seconds: left, asked: seconds, check },
    call,
  );
}

export async function showSession(ctx: Context, a: Arguments, call: ToolCallContext): Promise<ToolAnswer> {
  const ref = a.session();
  const limit = a.number('limit', 1, 100_000, DEFAULT_SHOW_LIMIT, true);
  const { id } = await sessionOf(ctx, ref);
  const agents = await agentsOf(ctx);
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

export async function listSessions(ctx: Context, a: Arguments): Promise<ToolAnswer> {
  const limit = a.number('limit', 1, MAX_SESSIONS, 20, true);
  const profile = ctx.profile();
  const sessions = (await readKnownSessions(ctx.state, profile)).slice(0, limit);
  const lines = sessions.map((s) => [s.id, s.title ?? '', s.agent ?? '', s.state ?? ''].join('\t'));
  const text = sessions.length ? lines.join('\n') : `No sessions recorded for profile ${profile} yet.`;
  return { structured: { profile, sessions: sessions.map(sessionJson) }, text };
}
