// `agents wait`: many sessions (or threads) waited on in one process, each reply handed on as it lands. The
// waits share the key's budget through one client; a failure does not stop the others.
import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionWork } from './session-work.js';
import type { ApiClient } from '../api/client.js';
import type { Message } from '../api/types.js';
import { isHttpError } from '../api/errors.js';
import { CliError, ExitCode, toCliError, type ExitCodeValue } from '../errors/cli-error.js';
import { isTransient, MAX_FAILED_POLLS } from '../poll/follow.js';
import { followThread, gaveUp } from './await-reply.js';
import { latestUserMessage } from './latest.js';
import type { WaitRef } from './refs.js';
import { resolveSession } from './resolve.js';
import { readKnownSessions } from '../state/known-sessions.js';
import type { SchemaProblem, SessionItem, StatusRow } from '../events/session-items.js';
import { checkReply, NO_JSON, schemaErrorLine, type OutputSchema } from './structured-output.js';
import { Channel } from '../../util/channel.js';
import { sleep } from '../../util/sleep.js';
import { fileError } from '../errors/file-errors.js';
import { errorMessage } from '../../util/text.js';

interface Entry {
  ref: WaitRef;
  /** For messages: the argument, or `stdin line N`. */
  origin: string;
  sessionId?: string;
  threadId?: string;
  state: 'waiting' | 'done' | 'failed' | 'duplicate';
}

export interface FanOutOptions {
  work: Pick<SessionWork, 'history' | 'schedule' | 'log'>;
  client: ApiClient;
  /** Ends every wait: the deadline, Ctrl-C, or the command leaving early. */
  signal: AbortSignal;
  /** --timeout was given: an outage is ridden out until the deadline. */
  bounded: boolean;
  /** Fetch each session's title (a request each). */
  titles: boolean;
  outputDir?: string;
  /** --output-schema: checked only, no follow-up is sent. */
  schema?: OutputSchema;
  notify?: boolean;
}

/** A reply that did not match the schema, in one line: no JSON, or its first errors. */
function mismatch(problem: SchemaProblem): CliError {
  const what =
    problem.kind === 'no-json'
      ? NO_JSON
      : problem.errors.slice(0, 3).map(schemaErrorLine).join('; ') + (problem.errors.length > 3 ? '; …' : '');
  const exitCode = ExitCode.SCHEMA_MISMATCH;
  return new CliError(`the agent's answer did not match the schema: ${what}`, { exitCode });
}

export function resumeWait(entries: { ref: WaitRef; sessionId?: string; threadId?: string }[]): string {
  const refs = entries.map((e) =>
    e.sessionId === undefined ? e.ref.text : e.threadId ? `${e.sessionId}/${e.threadId}` : e.sessionId,
  );
  return `agents wait ${refs.join(' ')}`;
}

async function latestThread(client: ApiClient, sessionId: string, signal: AbortSignal): Promise<string> {
  const thread = (await latestUserMessage(client, { sessionId }, { signal }))?.chat_thread_id;
  if (thread) return thread;
  const hint = `see it with: agents show ${sessionId}`;
  throw new CliError(`session ${sessionId} has no turn to wait on (no message was posted to it)`, { hint });
}

/** Waits on references as they are added; iterate items() for the replies and errors as they come. */
export class FanOut {
  readonly entries: Entry[] = [];
  firstError: ExitCodeValue | undefined;
  /** The highest exit code (create --attempts ends with the worst). */
  worstError: ExitCodeValue | undefined;
  private readonly channel = new Channel<SessionItem>();
  private readonly rows = new Map<string, StatusRow>();
  private readonly threads = new Set<string>();
  /** The references given per session (thread id or "latest"): several → files named per thread. */
  private readonly perSession = new Map<string, Set<string>>();
  /** The agents of the sessions this machine knows (the status lines name them). */
  private knownAgents: Promise<Map<string, string | undefined>> | undefined;
  private running = 0;
  private feeding = true;

  constructor(private readonly o: FanOutOptions) {}

  /** Ends when feeding has ended and every wait is over. */
  items(): AsyncIterable<SessionItem> {
    return this.channel;
  }

  add(ref: WaitRef, origin: string): void {
    const entry: Entry = { ref, origin, state: 'waiting' };
    this.entries.push(entry);
    this.running += 1;
    void this.run(entry).finally(() => {
      this.running -= 1;
      this.maybeEnd();
    });
  }

  /** A bad line on stdin: reported now, exit 2 at the end. */
  reject(origin: string, err: CliError): void {
    this.fail(`${origin}: ${err.message}`, err);
  }

  endFeeding(): void {
    this.feeding = false;
    this.maybeEnd();
  }

  pending(): Entry[] {
    return this.entries.filter((e) => e.state === 'waiting');
  }

  /** Entries that count (duplicates of another do not). */
  counted(): Entry[] {
    return this.entries.filter((e) => e.state !== 'duplicate');
  }

  private maybeEnd(): void {
    if (!this.feeding && this.running === 0) this.channel.close();
  }

  private fail(text: string, err: CliError): void {
    this.firstError ??= err.exitCode;
    this.worstError = Math.max(this.worstError ?? 0, err.exitCode) as ExitCodeValue;
    this.channel.push({ kind: 'error', text, hint: err.hint });
  }

  private agents(): Promise<Map<string, string | undefined>> {
    this.knownAgents ??= this.o.work
      .history()
      .then(readKnownSessions)
      .then(
        (known) => new Map(known.map((s) => [s.id, s.agent])),
        () => new Map(),
      );
    return this.knownAgents;
  }

  private row(key: string, patch: Partial<StatusRow>): void {
    const old: StatusRow = this.rows.get(key) ?? { sessionId: '', state: 'starting', since: Date.now() };
    const row = { ...old, ...patch };
    this.rows.set(key, row);
    this.channel.push({ kind: 'wait-status', key, row });
  }

  private async run(entry: Entry): Promise<void> {
    const { work, client, signal } = this.o;
    const key = String(this.entries.indexOf(entry));
    try {
      const sessionId =
        entry.ref.session.kind === 'id'
          ? entry.ref.session.id
          : (await resolveSession(entry.ref.session, await work.history())).id;
      entry.sessionId = sessionId;
      const given = this.perSession.get(sessionId) ?? new Set<string>();
      this.perSession.set(sessionId, given.add(entry.ref.threadId ?? 'latest'));
      const agent = (await this.agents()).get(sessionId);
      this.row(key, { sessionId, agent, state: 'starting' });

      const [title, threadId] = await Promise.all([
        this.o.titles
          ? this.resolving(() => client.getSession(sessionId, { signal }), sessionId).then((s) => s.title)
          : undefined,
        entry.ref.threadId ?? this.resolving(() => latestThread(client, sessionId, signal), sessionId),
      ]);
      entry.threadId = threadId;
      const thread = `${sessionId}/${threadId}`;
      if (this.threads.has(thread)) {
        // Named twice (a session and its latest thread, say): waited on and printed once.
        entry.state = 'duplicate';
        this.rows.delete(key);
        this.channel.push({ kind: 'wait-status', key, row: undefined });
        return;
      }
      this.threads.add(thread);
      this.row(key, { title, state: 'waiting' });

      const message = await this.follow(sessionId, threadId, key);
      const checked = this.o.schema ? checkReply(message.message, this.o.schema) : undefined;
      if (checked?.ok === false) throw mismatch(checked.problem);
      const structured = checked?.ok ? { value: checked.value } : undefined;
      if (this.o.outputDir !== undefined) {
        const text = structured ? `${JSON.stringify(structured.value)}\n` : message.message;
        await this.writeReply(sessionId, threadId, text);
      }
      entry.state = 'done';
      this.row(key, { state: 'done', until: Date.now() });
      const several = this.counted().length > 1;
      this.channel.push({ kind: 'wait-reply', sessionId, threadId, title, message, structured, several });
      const fields = structured ? { structured_output: structured.value } : {};
      const result = { session: sessionId, thread: threadId, message, ...fields };
      this.ended({ who: agent ?? `session ${sessionId}`, title, outcome: 'replied', result });
    } catch (err) {
      if (signal.aborted) {
        this.row(key, { state: 'stopped', until: Date.now() });
        return;
      }
      entry.state = 'failed';
      const e = isHttpError(err) ? gaveUp(err, '', `resume with: ${resumeWait([entry])}`) : toCliError(err);
      this.row(key, { state: 'failed', detail: `exit ${e.exitCode}`, until: Date.now() });
      // Each error names its session, unless its message already does.
      const who = entry.sessionId ? `session ${entry.sessionId}` : entry.origin;
      const named = entry.sessionId !== undefined && e.message.includes(entry.sessionId);
      this.fail(named ? e.message : `${who}: ${e.message}`, e);
      if (entry.sessionId !== undefined) {
        const result = { session: entry.sessionId, error: e.message, exit_code: e.exitCode };
        this.ended({ who: `session ${entry.sessionId}`, outcome: 'failed', result });
      }
    }
  }

  private ended(item: Omit<Extract<SessionItem, { kind: 'wait-ended' }>, 'kind' | 'notify'>): void {
    if (this.o.notify !== false) this.channel.push({ kind: 'wait-ended', ...item, notify: this.o.notify });
  }

  /** A request before the wait proper, ridden through an outage as the polls are. */
  private async resolving<T>(call: () => Promise<T>, sessionId: string): Promise<T> {
    for (let failures = 1; ; failures += 1) {
      try {
        return await call();
      } catch (err) {
        if (this.o.signal.aborted || !isTransient(err)) throw err;
        if (!this.o.bounded && failures >= MAX_FAILED_POLLS) throw err;
        this.warnFailing(sessionId, err, failures);
        await sleep(Math.min(30_000, 1000 * 2 ** failures), this.o.signal);
      }
    }
  }

  private warnFailing(sessionId: string, err: unknown, failures: number): void {
    // Once per run of failures: with many sessions, one line each per failed poll would bury the screen.
    if (failures !== 1) return;
    const what = errorMessage(err);
    this.o.work.log.warn(`session ${sessionId}: the service is failing: ${what}; still waiting`);
  }

  /** The thread's final, waited for as create --wait, the library and agents mcp wait. */
  private async follow(sessionId: string, threadId: string, key: string): Promise<Message> {
    const { work, client, signal } = this.o;
    const run = followThread({
      client,
      sessionId,
      threadId,
      mode: 'wait',
      signal,
      schedule: work.schedule,
      outage: {
        maxFailedPolls: this.o.bounded ? Number.POSITIVE_INFINITY : MAX_FAILED_POLLS,
        onTransientError: (err, n) => {
          this.row(key, { state: 'retrying' });
          this.warnFailing(sessionId, err, n);
        },
      },
    });
    let step = await run.next();
    while (!step.done) step = await run.next();
    return step.value;
  }

  /** DIR/<session>.md, or DIR/<session>-<thread>.md when several threads of one session are waited on. */
  private async writeReply(sessionId: string, threadId: string, text: string): Promise<void> {
    const dir = this.o.outputDir!;
    const several = (this.perSession.get(sessionId)?.size ?? 0) > 1;
    const path = join(dir, several ? `${sessionId}-${threadId}.md` : `${sessionId}.md`);
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      // Whole or not at all: a script watching the directory never reads half a reply.
      await writeFile(tmp, text);
      await rename(tmp, path);
    } catch (err) {
      throw fileError('--output-dir', path, 'write', err);
    }
  }
}
