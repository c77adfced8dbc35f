// A turn's result as the MCP tools that post or wait give it: the wait goes through the library's public
// `wait` (src/sdk), so that its regressions fail these tools' tests; time running out is an answer
// ("running"), a reply that never matched output_schema is one too (status schema_mismatch).
import {
  CliError,
  NO_JSON,
  noteSessionFacts,
  recordWorking,
  schemaErrorLine,
  SchemaMismatchError,
  TimeoutError,
  type Host,
  type WaitResult,
} from '../core/index.js';
import type { Agents, JsonSchema, Session } from '../sdk/index.js';
import { errorMessage } from '../util/text.js';

/** How long a POST or a read may take: over a minute, the key's budget window a request may wait out. */
export const REQUEST_DEADLINE_MS = 120_000;

/** One tool call as the server hands it over: its cancel signal, and progress when the client asked. */
export interface ToolCallContext {
  signal: AbortSignal;
  /** Whether the server is ending (stdin closed), as opposed to the client cancelling the call. */
  ending?: () => boolean;
  progress?: (waited: number, total: number, message: string) => void;
}

/** A turn's result (structuredContent) after its ids and address: the CLI's --json result, but "running". */
type Standing = Omit<WaitResult, 'session_id' | 'thread_id' | 'session_html_url' | 'status'> & {
  status: 'completed' | 'running' | 'schema_mismatch';
};

/** What a call returns: the data, and a text for a reader. */
export interface ToolOutcome {
  structured: Record<string, unknown>;
  text: string;
}

/** A turn under way, and how long to wait for it. */
export interface TurnAt {
  /** A posted Turn carries its output_schema and retries to the wait; without a thread, the wait finds the latest. */
  turn: { sessionId: string; threadId?: string | undefined };
  url: string | null;
  seconds: number;
  /** The wait the caller asked for, when `seconds` is what is left of it. */
  asked?: number;
  /** The turn was just posted: with no time to wait, it is running (nothing is asked). */
  posted?: boolean;
  /** wait_for_reply's output_schema: the reply is checked, never asked for again. */
  check?: JsonSchema | undefined;
}

/** A wait that got no answer from the service at all before its time ran out (a busy key, a slow service). */
export function noAnswer(seconds: number, sessionId: string, rateLimited: boolean): CliError {
  return new CliError(
    `no answer from the service in ${seconds} s while waiting on session ${sessionId}${rateLimited ? ' (429: the key is busy)' : ''}`,
    {
      hint: "the key's 100 requests a minute may be spent by other processes or machines (429), or the service is slow; the session goes on: call wait_for_reply again later",
    },
  );
}

/** Waits (or looks once, with 0 seconds) for the turn's reply; the time running out is an answer ("running"). */
export async function turnOutcome(
  host: Host<Agents>,
  t: TurnAt,
  call: ToolCallContext,
): Promise<ToolOutcome> {
  const { sessionId } = t.turn;
  if (t.posted && t.seconds === 0) return runningOutcome(t, t.turn.threadId ?? '', 0);
  const agents = await host.agents();
  const total = t.asked ?? t.seconds;
  try {
    const reply = await agents.wait(t.turn, {
      timeout: t.seconds * 1000,
      signal: call.signal,
      onProgress: (p) =>
        call.progress?.(p.waitedMs / 1000, total, `waiting for the reply on session ${sessionId}`),
      ...(t.check ? { outputSchema: t.check } : {}),
    });
    await ended(host, t, reply.threadId);
    const prs = reply.pullRequests.map((p) => (p.status === undefined ? p.url : { ...p }));
    const r = { status: 'completed' as const, final_message: reply.text, pull_requests: prs };
    if (reply.attempts === undefined) return outcome(t, reply.threadId, r, reply.text);
    const fields = { structured_output: reply.output, schema_attempts: reply.attempts };
    return outcome(t, reply.threadId, { ...r, ...fields }, JSON.stringify(reply.output));
  } catch (err) {
    // The wait's own time ran out (not a request's, nor a follow-up's post cut short): still running.
    if (err instanceof TimeoutError && err.answered !== undefined) {
      if (err.answered === 0) throw noAnswer(total, sessionId, err.rateLimited);
      const threadId = err.threadId ?? t.turn.threadId ?? '';
      await followedUp(host, t, threadId);
      return runningOutcome(t, threadId, err.attempts ?? 0);
    }
    if (!(err instanceof SchemaMismatchError)) throw err;
    await ended(host, t, err.threadId);
    const r = { status: 'schema_mismatch' as const, final_message: err.reply };
    const fields = { schema_attempts: err.attempts, schema_errors: err.errors };
    const prs = await pullRequestsOf(host, sessionId);
    return outcome(t, err.threadId, { ...r, pull_requests: prs, ...fields }, mismatchText(err));
  }
}

/** A turn's result, its fields in the output schema's order, and its text. */
function outcome(t: TurnAt, thread_id: string, r: Standing, text: string): ToolOutcome {
  return { structured: { session_id: t.turn.sessionId, thread_id, session_html_url: t.url, ...r }, text };
}

/** The result of a turn still under way; `attempts`: replies checked against output_schema so far. */
function runningOutcome(t: TurnAt, threadId: string, attempts: number): ToolOutcome {
  const r: Standing = { status: 'running', final_message: null, pull_requests: [] };
  if (attempts > 0) r.schema_attempts = attempts;
  const asked = attempts > 0 ? ` Its answer did not match output_schema and was asked for again.` : '';
  const text = `The agent is still working (session ${t.turn.sessionId}, thread ${threadId}).${asked} Call wait_for_reply to wait for its reply.`;
  return outcome(t, threadId, r, text);
}

/** A reply that never matched, as text: what was wrong with the last one, and the reply itself. */
function mismatchText(e: SchemaMismatchError): string {
  const tries = e.attempts === 1 ? '1 try' : `${e.attempts} tries`;
  // A reply with no JSON in it is the one error at path '' the library names so (see mismatchError).
  const noJson = e.errors.length === 1 && e.errors[0]!.path === '' && e.errors[0]!.message === NO_JSON;
  const n = e.errors.length;
  const summary = noJson ? NO_JSON : `${n} error${n === 1 ? '' : 's'}`;
  const errors = noJson ? [] : e.errors.map((x) => `\n- ${schemaErrorLine(x)}`);
  return `The agent's answer did not match output_schema after ${tries} (${summary}).${errors.join('')}\n\nIts last reply:\n${e.reply}`;
}

/** The session's pull requests as the service gives them (one read; none, with a warning, when it fails). */
async function pullRequestsOf(host: Host<Agents>, sessionId: string): Promise<Session['pull_requests']> {
  try {
    const session = await (await host.agents()).session(sessionId, { timeout: REQUEST_DEADLINE_MS });
    return Array.isArray(session.pull_requests) ? session.pull_requests : [];
  } catch (err) {
    host.log.warn(`could not read the session's pull requests: ${errorMessage(err)}`);
    return [];
  }
}

/** A schema's follow-up started a turn of its own: it is the profile's `last` now, as a send's is. */
async function followedUp(host: Host<Agents>, t: TurnAt, threadId: string): Promise<void> {
  // wait_for_reply never follows up: with no thread given, the one the wait found is the latest turn's.
  if (t.turn.threadId === undefined || threadId === t.turn.threadId) return;
  await recordWorking(host, { sessionId: t.turn.sessionId, threadId });
}

/** The turn ended: noted here, as the library's wait alone has seen a schema's follow-up end. */
async function ended(host: Host<Agents>, t: TurnAt, threadId: string): Promise<void> {
  await followedUp(host, t, threadId);
  const failed = await noteSessionFacts(await host.history(), [{ id: t.turn.sessionId, state: 'finished' }]);
  if (failed) host.log.warn(failed);
}
