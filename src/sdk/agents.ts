// The library's client over the CLI's own core. Constructing it reads and sends nothing; each call checks its
// arguments before any request.
import type { ApiClient } from '../core/api/client.js';
import type { CreateSessionBody, Session } from '../core/api/types.js';
import { AgentsError, ApiError, UsageError } from '../core/errors/agents-error.js';
import { toCliError } from '../core/errors/cli-error.js';
import { validateBudgetUrl } from '../core/config/validators.js';
import { openConfigFile } from '../core/config/config-file.js';
import { requireConnection, resolveSettings } from '../core/config/settings.js';
import { startDeadline, type Deadline } from '../core/sessions/deadline.js';
import { postTurn, type TurnPost } from '../core/sessions/post.js';
import { withSchemaInstruction } from '../core/sessions/structured-output.js';
import { loadOutputSchema } from '../core/sessions/output-schema.js';
import { readSession } from '../core/sessions/read-session.js';
import { artifactRecord, latestPlanRecord } from '../core/sessions/artifacts.js';
import { groupTurns } from '../core/conversation/turns.js';
import { DEFAULT_SCHEDULE } from '../core/poll/schedule.js';
import {
  agentArgs,
  clientArgs,
  messageArg,
  schemaArgs,
  signalArg,
  timeoutArg,
  titleArg,
  turnArg,
  uuidArg,
} from './arguments.js';
import { clientOf, emitter } from './client-of.js';
import { recordIn } from '../core/state/turn-ends.js';
import { openStateFile } from '../core/state/state-file.js';
import { historyFor } from '../core/state/history-for.js';
import { followTurn, NEVER, settled, waitReply, type Settled, type WaitJob } from './waits.js';
import { randomUUID } from 'node:crypto';
import type {
  AgentsEvent,
  AgentsOptions,
  Attempt,
  Attempts,
  AttemptsOptions,
  ArtifactContent,
  CallOptions,
  ConfigOptions,
  CreateOptions,
  FollowOptions,
  Landed,
  Reply,
  SendOptions,
  SessionView,
  ShowOptions,
  Turn,
  TurnRef,
  WaitOptions,
} from './types.js';

/** A turn's schema, compiled, and the follow-ups allowed. */
type Check = NonNullable<WaitJob['check']>;

/**
 * A client of Blocks' Agent Sessions API: start agent sessions, follow up, wait for replies.
 *
 * @example
 * ```ts
 * const agents = new Agents({ apiKey: process.env.BLOCKS_API_KEY!, baseUrl: 'https://api.blocks.team' });
 * const turn = await agents.create({ agent: 'claude', message: 'Fix the flaky test' });
 * const reply = await agents.wait(turn, { timeout: '20m' });
 * ```
 */
export class Agents {
  readonly #options: AgentsOptions;
  readonly #connection: { apiKey: string; baseUrl: string };
  readonly #emit: (event: AgentsEvent) => void;
  #client: ApiClient | undefined;
  /** The schema of each turn created or sent with one, for its wait. */
  readonly #checks = new WeakMap<object, Check>();

  /** Checks the options (a {@link UsageError} when one is wrong); reads no file and sends nothing. */
  constructor(options: AgentsOptions) {
    const { warning, ...connection } = clientArgs(options);
    if (options.budgetUrl !== undefined) validateBudgetUrl(options.budgetUrl, 'budgetUrl');
    if (options.budget && options.budget.url !== undefined)
      validateBudgetUrl(options.budget.url, 'budget.url');
    if (options.onEvent !== undefined && typeof options.onEvent !== 'function') {
      throw new UsageError('onEvent must be a function');
    }
    this.#options = { ...options };
    this.#connection = connection;
    this.#emit = emitter(options.onEvent);
    if (warning !== undefined) this.#emit({ type: 'warning', message: warning });
  }

  /**
   * A client with the CLI's settings: `AGENTS_API_KEY`, `AGENTS_BASE_URL` and `AGENTS_BUDGET_URL` from the
   * environment, then the profile's values from the CLI's config file (the one file read for them), and its
   * key from the system's keychain where `agents login` put it there (read in a child process, given up
   * after 3 s). A turn's
   * end it sees, on a session `agents ls` knows, is recorded in the CLI's state file (`ls` then shows it
   * finished); it adds no session there and never changes `last`.
   */
  static async fromConfig(options: ConfigOptions = {}): Promise<Agents> {
    const env = options.env ?? process.env;
    const config = openConfigFile(env);
    const settings = await resolveSettings(
      options.profile === undefined ? {} : { profile: options.profile },
      env,
      () => config.profiles(),
      ['apiKey', 'baseUrl', 'budgetUrl'],
    );
    // A base URL's warning is said once, by the constructor, as an event.
    const connection = requireConnection(settings);
    const agents = new Agents({
      ...connection,
      env,
      budgetUrl: settings.budgetUrl,
      onEvent: options.onEvent,
    });
    const state = openStateFile(env, process.platform);
    recordIn(agents, await historyFor(state, settings, () => config.profiles()));
    return agents;
  }

  #api(): ApiClient {
    return (this.#client ??= clientOf(this.#options, this.#connection, this.#emit, this));
  }

  /**
   * Starts a session: the agent takes the message as its first turn. Resolves once the service took it
   * (the create is never sent twice); {@link Agents.wait} gets the reply. With `outputSchema`, the message
   * asks for JSON and the turn's wait checks the reply, asking again up to `schemaRetries` times.
   */
  async create(options: CreateOptions): Promise<Turn> {
    if (typeof options !== 'object' || options === null)
      throw new UsageError('create() needs { agent, message }');
    const agent = agentArgs(options.agent, options.agentId);
    const message = messageArg(options.message);
    const title = titleArg(options.title);
    const group =
      options.sessionGroupId === undefined ? undefined : uuidArg(options.sessionGroupId, 'sessionGroupId');
    const check = await this.#check(options);
    const body: CreateSessionBody = {
      message: check ? withSchemaInstruction(message, check.schema) : message,
      ...agent,
    };
    if (options.isPrivate === true) body.is_private = true;
    if (title !== undefined) body.title = title;
    if (group !== undefined) body.session_group_id = group;
    return this.#post({ kind: 'create', body }, options, check);
  }

  /**
   * Starts the same task as `attempts` sessions (2 to 5) in one new session group, to compare their answers
   * and keep the best. The creates are posted one after another through the key's budget; one that fails
   * is reported in its {@link Attempt} and leaves the others (none is sent twice). Wait on them with
   * {@link Agents.replies}. A usage error (bad `attempts`, `sessionGroupId` given) sends nothing.
   */
  async createAttempts(options: AttemptsOptions): Promise<Attempts> {
    if (typeof options !== 'object' || options === null)
      throw new UsageError('createAttempts() needs { agent, message, attempts }');
    const n = options.attempts;
    if (!Number.isInteger(n) || n < 2 || n > 5)
      throw new UsageError('attempts must be a whole number from 2 to 5');
    if ((options as CreateOptions).sessionGroupId !== undefined) {
      throw new UsageError('createAttempts() makes a new session group: leave sessionGroupId out');
    }
    // Checked once, before anything is sent: a bad argument is not N errors.
    agentArgs(options.agent, options.agentId);
    messageArg(options.message);
    titleArg(options.title);
    const groupId = randomUUID();
    const { attempts: _n, ...create } = options;
    const attempts: Attempt[] = [];
    for (let attempt = 1; attempt <= n; attempt += 1) {
      try {
        attempts.push({ attempt, turn: await this.create({ ...create, sessionGroupId: groupId }) });
      } catch (err) {
        if (options.signal?.aborted) throw err;
        attempts.push({ attempt, error: toCliError(err) });
      }
    }
    return { groupId, attempts };
  }

  /** Sends a follow-up to a session: a new turn, which interrupts the one in progress. */
  async send(sessionId: string, message: string, options: SendOptions = {}): Promise<Turn> {
    const id = uuidArg(sessionId, 'sessionId');
    const text = messageArg(message);
    const check = await this.#check(options);
    const body = { message: check ? withSchemaInstruction(text, check.schema) : text };
    return this.#post({ kind: 'send', sessionId: id, body }, options, check);
  }

  /**
   * Waits for a turn's final reply (a session id alone: its latest turn), with the session's pull requests.
   * `timeout` bounds it (a {@link TimeoutError} naming the session and thread; the session goes on).
   */
  async wait(turn: TurnRef, options: WaitOptions = {}): Promise<Reply> {
    return waitReply(await this.#job(turn, options, true));
  }

  /** Each message of a turn as it lands (tool calls too with `tools`), ending with the final reply. */
  async *follow(turn: TurnRef, options: FollowOptions = {}): AsyncGenerator<Landed, void, undefined> {
    yield* followTurn(await this.#job(turn, options), options.tools === true);
  }

  /**
   * Waits on many turns at once and yields each as it ends, in the order they end: its reply, or the error
   * its wait ended with. The waits share the key's budget as the CLI's do; leaving the loop stops the rest.
   */
  async *replies(
    turns: readonly TurnRef[],
    options: WaitOptions = {},
  ): AsyncGenerator<Settled, void, undefined> {
    if (!Array.isArray(turns)) throw new UsageError('replies() takes an array of turns');
    const refs = turns.map(turnArg);
    timeoutArg(options.timeout, true); // checked before any wait starts; each wait reads it again
    const given = signalArg(options.signal);
    const stop = new AbortController();
    const signal = given ? AbortSignal.any([given, stop.signal]) : stop.signal;
    try {
      yield* settled(refs, (ref) => this.wait(ref, { ...options, signal }));
    } finally {
      stop.abort(new AgentsError('replies() was left'));
    }
  }

  /**
   * A session's record alone, in one request: its title, web address and pull requests as the service
   * lists them, without its conversation ({@link Agents.show} reads that too).
   */
  async session(sessionId: string, options: CallOptions = {}): Promise<Session> {
    const id = uuidArg(sessionId, 'sessionId');
    return this.#read(options, ({ signal }) => this.#api().getSession(id, { signal }));
  }

  /** A session, and its conversation turn by turn. */
  async show(sessionId: string, options: ShowOptions = {}): Promise<SessionView> {
    const id = uuidArg(sessionId, 'sessionId');
    const limit = options.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new UsageError('limit must be a whole number of at least 1');
    }
    return this.#read(options, async ({ signal }) => {
      const q = { tools: options.tools === true, ...(limit !== undefined ? { limit } : {}) };
      const view = await readSession(this.#api(), id, q, { signal });
      const messages = view.conversation.entries.map((e) => e.message);
      return {
        session: view.session,
        turns: groupTurns(messages, view.threads).flatMap((t) =>
          t.threadId === null ? [] : [{ threadId: t.threadId, number: t.number, messages: t.messages }],
        ),
        runningThreadId: view.running,
        notices: view.conversation.notices.map((n) => n.message),
        ...(view.truncatedTo !== undefined ? { truncatedTo: view.truncatedTo } : {}),
      };
    });
  }

  /** The session's latest plan, as markdown (a {@link NotFoundError} when it has none). */
  async plan(sessionId: string, options: CallOptions = {}): Promise<{ artifactId: string; text: string }> {
    const id = uuidArg(sessionId, 'sessionId');
    return this.#read(options, async ({ signal }) => {
      const record = await latestPlanRecord(this.#api(), id, { signal });
      const got = await this.#api().download(record.url, { signal });
      return { artifactId: record.id, text: new TextDecoder().decode(got.bytes) };
    });
  }

  /** One artifact's bytes (fetched from its presigned link, without the key). */
  async artifact(sessionId: string, artifactId: string, options: CallOptions = {}): Promise<ArtifactContent> {
    const id = uuidArg(sessionId, 'sessionId');
    const aid = uuidArg(artifactId, 'artifactId');
    return this.#read(options, async ({ signal }) => {
      const record = await artifactRecord(this.#api(), id, aid, { signal });
      const got = await this.#api().download(record.url, { signal });
      return {
        id: record.id,
        kind: record.kind,
        bytes: new Uint8Array(got.bytes),
        contentType: got.contentType,
      };
    });
  }

  /** outputSchema compiled (ajv loaded only then): a bad schema is a UsageError before anything is sent. */
  async #check(o: CreateOptions | SendOptions): Promise<Check | undefined> {
    const given = schemaArgs(o);
    timeoutArg(o.timeout);
    signalArg(o.signal);
    if (given === undefined) return undefined;
    return { schema: await loadOutputSchema(given.schema, 'outputSchema'), retries: given.retries };
  }

  /** Posts a turn within the call's timeout; the Turn, remembered with its schema. */
  async #post(turn: TurnPost, o: CallOptions, check: Check | undefined): Promise<Turn> {
    return this.#read(o, async (deadline) => {
      const posted = await postTurn(this.#api(), turn, deadline, undefined);
      if (posted.threadId === undefined) {
        throw new ApiError(`the service returned no thread for session ${posted.sessionId}`, {
          kind: 'unexpected',
        });
      }
      const result: Turn = {
        sessionId: posted.sessionId,
        threadId: posted.threadId,
        url: posted.session?.session_html_url || undefined,
        ...(posted.session ? { session: posted.session } : {}),
        ...(posted.sent ? { sent: posted.sent } : {}),
      };
      if (check) this.#checks.set(result, check);
      return result;
    });
  }

  /** A call within its timeout; its errors the hierarchy's. */
  async #read<T>(o: CallOptions, read: (deadline: Deadline) => Promise<T>): Promise<T> {
    const deadline = startDeadline(signalArg(o.signal) ?? NEVER, timeoutArg(o.timeout));
    try {
      return await read(deadline);
    } catch (err) {
      throw toCliError(err);
    } finally {
      deadline.dispose();
    }
  }

  /** A wait's job: the turn checked, its schema (its own, or one given). `once`: a timeout of 0 allowed. */
  async #job(turn: TurnRef, o: WaitOptions, once = false): Promise<WaitJob> {
    const ref = turnArg(turn);
    const timeoutMs = timeoutArg(o.timeout, once);
    if (o.onProgress !== undefined && typeof o.onProgress !== 'function') {
      throw new UsageError('onProgress must be a function');
    }
    const stop = signalArg(o.signal) ?? NEVER;
    const own = typeof turn === 'object' ? this.#checks.get(turn) : undefined;
    const given = schemaArgs({ outputSchema: o.outputSchema });
    const check =
      own ?? (given && { schema: await loadOutputSchema(given.schema, 'outputSchema'), retries: 0 });
    return {
      client: this.#api(),
      sessionId: ref.sessionId,
      threadId: ref.threadId,
      url: ref.url,
      stop,
      timeoutMs,
      emit: this.#emit,
      pullRequests: o.pullRequests !== false,
      seen: { answered: 0, rateLimited: false, attempts: 0 },
      onProgress: o.onProgress,
      check,
      schedule: this.#options.tuning?.schedule && { ...DEFAULT_SCHEDULE, ...this.#options.tuning.schedule },
    };
  }
}
