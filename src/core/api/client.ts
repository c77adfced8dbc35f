// The one HTTP client of the Agent Sessions API: the commands and the poller see typed calls and HttpErrors.
import type { Dispatcher } from 'undici';
import { VERSION } from '../../util/version.js';
import { HttpError, isHttpError, type Creates } from './errors.js';
import { DEFAULT_RETRY, type RetryNotice, type RetryOptions } from './backoff.js';
import { exchangeFor, type ProxyEnv } from './exchange.js';
import { DEFAULT_PACING, limiterFor, type Limiter, type PacingOptions, type PollShare } from '../budget/limiter.js';
import { sharedLimiterFor, type SharedPacingOptions } from '../budget/shared.js';
import { DEFAULT_MAX_RESPONSE_BYTES, postOutcome, Transport, type Download } from './transport.js';
import { ApiUrls, assertUuid, type ThreadTarget } from './urls.js';
import { asArtifact, asMessagePage, asSentMessage, asSession } from './schemas/index.js';
import { foreignTo, type ForeignNotice } from './belongs.js';
import { PageGuard } from './paging.js';
import type {
  Artifact,
  CreateSessionBody,
  ListQuery,
  Message,
  MessagePage,
  SendMessageBody,
  SentMessage,
  Session,
} from './types.js';

export type { ThreadTarget } from './urls.js';

/** How an ApiClient talks to the service. */
export interface ClientOptions {
  /** The `{base_url}`, without /rest/v1 (may have a path prefix). */
  baseUrl: string;
  apiKey: string;
  userAgent?: string;
  /** One line per request and per response, key redacted. */
  debug?: (line: string) => void;
  /** The time-outs: connecting; the wait for the headers and each gap in the body; the whole exchange. */
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  requestTimeoutMs?: number;
  maxResponseBytes?: number;
  /** Told of each listed message of another session or thread than asked (the server ignored its filter; dropped). */
  onForeign?: (notice: ForeignNotice) => void;
  /**
   * Told of the messages of each page listed, before it is returned: where every reader sees a turn end, so
   * one observer records it for all (src/core/state/turn-ends.ts). A failure of the observer is its own.
   */
  onListed?: (target: ThreadTarget, messages: readonly Message[]) => void | Promise<void>;
  retry?: Partial<RetryOptions>;
  /** At most `limit` requests in any `windowMs` per (origin, key), for the whole process. Default 100 per minute. */
  pacing?: PacingOptions | false;
  /** Requests a minute this machine may send with the key; `pacing` beats it. */
  ratePerMinute?: number;
  /** Share that budget with every process on the machine using the same origin and key. */
  sharedPacing?: SharedPacingOptions;
  /** The caller's undici dispatcher, for every request (default: exchange.ts chooses). */
  dispatcher?: Dispatcher;
  /** Where the proxy variables come from; none are read from anywhere else. Default: no proxy. */
  env?: ProxyEnv;
  /** Told before each retry's wait (for a "retrying in 2 s" line). */
  onRetry?: (notice: RetryNotice) => void;
  /** Told when a request has waited a second for a slot of the key's budget. */
  onPaced?: (pacing: PacingOptions) => void;
}

export interface CallOptions {
  /** Cancels the call at once, also while it waits for a pacing slot or a retry. */
  signal?: AbortSignal;
  /** getSession only: a reply in hand waits on it, so it goes before the polls waiting for the key's budget. */
  urgent?: boolean;
  /** listMessages only: the caller rides out failures itself (a wait's poller), with the retries of a call without deadline. */
  ownRetries?: boolean;
  /** listMessages only: told of each failure the call rides out (a chat's status line). */
  onRetry?: (err: unknown) => void;
}

/** Page size of iterateMessages: the largest the service allows. */
const ITERATE_LIMIT = 100;

/** A POST answered 2xx created something even when its body is unusable: say so, and how to check. */
function created<T>(parse: () => T, creates: Creates): T {
  try {
    return parse();
  } catch (err) {
    throw isHttpError(err) ? postOutcome(err, creates) : err;
  }
}

/**
 * A 404 without the API's error body (which it gives for a session or thread it lacks) is a route the server
 * lacks: the base URL is wrong, and "check the session id" after a create would mislead.
 */
function routeless(err: unknown, base: string): unknown {
  if (!isHttpError(err) || err.kind !== 'not_found' || err.serverMessage !== undefined) return err;
  return new HttpError({
    kind: 'not_found',
    status: err.status,
    message: `the server at ${base} has no such route (HTTP ${err.status ?? 404}): it does not serve the Agent Sessions API there`,
    advice: `check the base URL (--base-url, AGENTS_BASE_URL, or the profile's base-url): it is the service's address without /rest/v1`,
    cause: err,
  });
}

/** A client of the Agent Sessions API for one base URL and key. */
export class ApiClient {
  private readonly urls: ApiUrls;
  private readonly transport: Transport;
  private readonly limiter: Limiter | undefined;

  constructor(private readonly options: ClientOptions) {
    this.urls = new ApiUrls(options.baseUrl);
    const { origin } = this.urls;
    const { apiKey, ratePerMinute, sharedPacing } = options;
    const pacing =
      options.pacing ?? (ratePerMinute === undefined ? DEFAULT_PACING : { ...DEFAULT_PACING, limit: ratePerMinute });
    if (pacing !== false) {
      this.limiter = sharedPacing
        ? sharedLimiterFor(origin, apiKey, pacing, sharedPacing)
        : limiterFor(origin, apiKey, pacing);
    }
    const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    const responseTimeoutMs = options.responseTimeoutMs ?? 30_000;
    this.transport = new Transport({
      ...options,
      origin,
      userAgent: options.userAgent ?? `agents/${VERSION}`,
      connectTimeoutMs,
      responseTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs ?? 2 * responseTimeoutMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      limiter: this.limiter,
      exchange: exchangeFor({ ...options, connectTimeoutMs, responseTimeoutMs, env: options.env ?? {} }),
    });
  }

  private send(...args: Parameters<Transport['send']>): ReturnType<Transport['send']> {
    return this.transport.send(...args).catch((err: unknown) => {
      throw routeless(err, this.urls.base);
    });
  }

  /** Registers a poller on the key's budget (none without pacing): its share is the least gap between its polls. */
  pollShare(): PollShare | undefined {
    return this.limiter?.register();
  }

  /** Requests sent so far by this client, retries included (for benchmarks and tests). */
  get requestCount(): number {
    return this.transport.requestCount;
  }

  async createSession(body: CreateSessionBody, o: CallOptions = {}): Promise<Session> {
    const creates: Creates = { what: 'session' };
    const url = this.urls.sessions();
    const json = await this.send({ method: 'POST', url, body, badRequest: 'validation', creates }, o.signal);
    return created(() => asSession(json), creates);
  }

  async getSession(sessionId: string, o: CallOptions = {}): Promise<Session> {
    const url = this.urls.session(sessionId);
    return asSession(await this.send({ method: 'GET', url, urgent: o.urgent }, o.signal), sessionId);
  }

  /** One artifact of a session (the live service's endpoint): its record, with a presigned download link. */
  async getArtifact(sessionId: string, artifactId: string, o: CallOptions = {}): Promise<Artifact> {
    const url = this.urls.artifact(sessionId, artifactId);
    return asArtifact(await this.send({ method: 'GET', url }, o.signal), artifactId);
  }

  /** The bytes behind a presigned link (download.ts: no key, https only, capped). */
  download(url: string, o: CallOptions = {}): Promise<Download> {
    return this.transport.download(url, o.signal);
  }

  async sendMessage(sessionId: string, body: SendMessageBody, o: CallOptions = {}): Promise<SentMessage> {
    const creates: Creates = { what: 'message', sessionId };
    const url = this.urls.sessionMessages(sessionId);
    const json = await this.send({ method: 'POST', url, body, badRequest: 'bad_request', creates }, o.signal);
    return created(() => asSentMessage(json, sessionId), creates);
  }

  /** One page of messages; the threaded form when `target.threadId` is set. */
  async listMessages(target: ThreadTarget, query: ListQuery, o: CallOptions = {}): Promise<MessagePage> {
    const url = this.urls.messages(target, query);
    const json = await this.send({ method: 'GET', url, ownRetries: o.ownRetries, onRetry: o.onRetry }, o.signal);
    const page = asMessagePage(json, target.sessionId);
    if (this.options.onListed !== undefined) {
      const mine = page.items.filter((m) => foreignTo({ sessionId: target.sessionId }, m) === undefined);
      await this.options.onListed(target, mine);
    }
    return page;
  }

  /** Whether a listed message is of `target` (the server's filter may let others through: the owner is told). */
  belongs(target: ThreadTarget, m: Message): boolean {
    const why = foreignTo(target, m);
    if (why === undefined) return true;
    if (why !== 'notice') this.options.onForeign?.({ why, target, message: m });
    return false;
  }

  /** Every message of `target` matching the query (its page/limit ignored), each once, foreign ones dropped. */
  async *iterateMessages(
    target: ThreadTarget,
    query: ListQuery,
    o: CallOptions = {},
  ): AsyncIterable<Message> {
    assertUuid(target.sessionId, 'session id');
    // Messages stored while we page shift a descending list; the ids seen keep each message to one yield.
    const seen = new Set<string>();
    const guard = new PageGuard(`the messages of session ${target.sessionId}`);
    for (let page = 1; ; page++) {
      if (page > 1) guard.allow(page);
      const result = await this.listMessages(target, { ...query, page, limit: ITERATE_LIMIT }, o);
      let added = 0;
      for (const message of result.items) {
        if (seen.has(message.id)) continue;
        seen.add(message.id);
        added += 1;
        if (this.belongs(target, message)) yield message;
      }
      guard.check(page, result, added);
      if (result.items.length === 0 || page >= result.meta.total_pages) return;
    }
  }
}
