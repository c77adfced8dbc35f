// The one HTTP client of the Agent Sessions API. It owns auth, the base URL and same-origin links, pacing,
// retries and time-outs; the commands and the poller see typed calls and HttpErrors, nothing of HTTP.
import type { Dispatcher } from 'undici';
import { VERSION } from '../../util/version.js';
import { HttpError, isHttpError, type Creates } from './errors.js';
import { DEFAULT_RETRY, type RetryNotice, type RetryOptions } from './backoff.js';
import type { ProxyEnv } from './dispatcher.js';
import { exchangeFor } from './exchange.js';
import { DEFAULT_PACING, limiterFor, type Limiter, type PollShare } from '../budget/limiter.js';
import { sharedLimiterFor, type SharedPacingOptions } from '../budget/shared.js';
import { DOWNLOAD_CAP, postOutcome, Transport, type Download } from './transport.js';
import { ApiUrls, assertUuid, type ThreadTarget } from './urls.js';
import { asArtifact, asMessagePage, asSentMessage, asSession } from './schemas/index.js';
import { foreignTo, type ForeignNotice } from './belongs.js';
import { PageGuard } from './paging.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './transport.js';
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
  /** Default `agents/<VERSION>`; the CLI adds the Node version. */
  userAgent?: string;
  /** When set, one line per request and per response, key redacted. */
  debug?: (line: string) => void;
  /** Default 10 000. */
  connectTimeoutMs?: number;
  /** Waiting for the headers, and between body chunks. Default 30 000. */
  responseTimeoutMs?: number;
  /** The whole exchange, headers and body. Default twice responseTimeoutMs. */
  requestTimeoutMs?: number;
  /** The largest answer read; default DEFAULT_MAX_RESPONSE_BYTES (32 MiB). */
  maxResponseBytes?: number;
  /**
   * Told of each listed message that belongs to another session or thread than the one asked for (the
   * server ignored its own filter); the message is dropped, never shown or waited on.
   */
  onForeign?: (notice: ForeignNotice) => void;
  /**
   * Told of the messages of each page listed (those of the session asked for), before the page is
   * returned: where every reader (a wait, tail, show, the library) sees a turn end, so one observer can
   * record it for all of them (src/core/state/turn-ends.ts). A failure of the observer is its own.
   */
  onListed?: (target: ThreadTarget, messages: readonly Message[]) => void | Promise<void>;
  retry?: Partial<RetryOptions>;
  /** At most `limit` requests in any `windowMs` per (origin, key), for the whole process. Default 100 per minute. */
  pacing?: { limit: number; windowMs: number } | false;
  /** Requests a minute this machine may send with the key (default DEFAULT_PACING's 100); `pacing` beats it. */
  ratePerMinute?: number;
  /**
   * Share that budget with every process on the machine that uses the same origin and key, through a
   * state file in `shared.dir`. Without it, the process paces itself alone.
   */
  sharedPacing?: SharedPacingOptions;
  /**
   * An undici dispatcher of the caller's, for every request. Default: Node's own HTTP client with the
   * time-outs above, one pool per scheme for the process (exchange.ts); undici's EnvHttpProxyAgent when
   * `env` names a proxy.
   */
  dispatcher?: Dispatcher;
  /** Where the proxy variables come from; none are read from anywhere else. Default: no proxy. */
  env?: ProxyEnv;
  /** Told before each retry's wait (for a "retrying in 2 s" line). */
  onRetry?: (notice: RetryNotice) => void;
  /** Told when a request has waited a second for a slot of the key's budget (see Transport). */
  onPaced?: (pacing: { limit: number; windowMs: number }) => void;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call at once, also while it waits for a pacing slot or a retry. */
  signal?: AbortSignal;
  /**
   * A reply in hand waits on this answer: while the key's budget is spent, the call goes before the
   * requests waiting without it (polls). Only getSession takes it.
   */
  urgent?: boolean;
  /**
   * The caller rides out failed calls itself, saying so (a wait's poller): the call keeps to the retries of
   * a call without a deadline even when its signal has one. Only listMessages takes it.
   */
  ownRetries?: boolean;
  /** Told of each failure the call rides out before it retries (a chat's status line). Only listMessages takes it. */
  onRetry?: (err: unknown) => void;
}

/** Page size of iterateMessages: the largest the service allows. */
const ITERATE_LIMIT = 100;

const CREATES_SESSION: Creates = { what: 'session' };

function createsMessage(sessionId: string): Creates {
  return { what: 'message', sessionId };
}

/** A POST answered 2xx created something even when its body is unusable: say so, and how to check. */
function created<T>(parse: () => T, creates: Creates): T {
  try {
    return parse();
  } catch (err) {
    throw isHttpError(err) ? postOutcome(err, creates) : err;
  }
}

/**
 * A 404 without the API's error body (a JSON object with an `error` text, which the API gives for a session
 * or thread it does not have) is a route the server lacks: the base URL is wrong, whatever the request was
 * about, and saying "check the session id" after a create would mislead. Named so, with its own advice.
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
  private readonly onForeign: ((notice: ForeignNotice) => void) | undefined;
  private readonly onListed: ClientOptions['onListed'];
  /** The base URL as its requests use it (without /rest/v1), for messages. */
  private readonly base: string;

  constructor(options: ClientOptions) {
    this.urls = new ApiUrls(options.baseUrl);
    this.base = this.urls.root.replace(/\/rest\/v1$/, '');
    const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    const responseTimeoutMs = options.responseTimeoutMs ?? 30_000;
    this.onForeign = options.onForeign;
    this.onListed = options.onListed;
    const pacing =
      options.pacing ??
      (options.ratePerMinute === undefined
        ? DEFAULT_PACING
        : { ...DEFAULT_PACING, limit: options.ratePerMinute });
    const { origin } = this.urls;
    if (pacing !== false) {
      this.limiter = options.sharedPacing
        ? sharedLimiterFor(origin, options.apiKey, pacing, options.sharedPacing)
        : limiterFor(origin, options.apiKey, pacing);
    }
    this.transport = new Transport({
      origin: this.urls.origin,
      apiKey: options.apiKey,
      userAgent: options.userAgent ?? `agents/${VERSION}`,
      debug: options.debug,
      connectTimeoutMs,
      responseTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs ?? 2 * responseTimeoutMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      limiter: this.limiter,
      onRetry: options.onRetry,
      onPaced: options.onPaced,
      exchange: exchangeFor({
        connectTimeoutMs,
        responseTimeoutMs,
        env: options.env ?? {},
        dispatcher: options.dispatcher,
      }),
    });
  }

  /** One request through the transport, a 404 of a route the server lacks said as such (routeless). */
  private send(...args: Parameters<Transport['send']>): ReturnType<Transport['send']> {
    return this.transport.send(...args).catch((err: unknown) => {
      throw routeless(err, this.base);
    });
  }

  /**
   * Registers a poller on the key's budget: its share() is the least gap between its polls that keeps
   * all the waiters on the key (in every process, when the budget is shared) within the limit. Without
   * pacing there is no budget to share: undefined.
   */
  pollShare(): PollShare | undefined {
    return this.limiter?.register();
  }

  /** Requests sent so far by this client, retries included (for benchmarks and tests). */
  get requestCount(): number {
    return this.transport.requestCount;
  }

  async createSession(body: CreateSessionBody, o: CallOptions = {}): Promise<Session> {
    const json = await this.send(
      {
        method: 'POST',
        url: this.urls.sessions(),
        body,
        badRequest: 'validation',
        creates: CREATES_SESSION,
      },
      o.signal,
    );
    return created(() => asSession(json), CREATES_SESSION);
  }

  async getSession(sessionId: string, o: CallOptions = {}): Promise<Session> {
    const json = await this.send(
      { method: 'GET', url: this.urls.session(sessionId), urgent: o.urgent },
      o.signal,
    );
    return asSession(json, sessionId);
  }

  /** One artifact of a session (the live service's endpoint): its record, with a presigned download link. */
  async getArtifact(sessionId: string, artifactId: string, o: CallOptions = {}): Promise<Artifact> {
    const json = await this.send(
      { method: 'GET', url: this.urls.artifact(sessionId, artifactId) },
      o.signal,
    );
    return asArtifact(json, artifactId);
  }

  /**
   * The bytes behind a presigned link: the one request that leaves the base URL's origin, so it carries
   * no key and no header of ours but User-Agent, goes only to https (or loopback), and is capped.
   */
  download(url: string, o: CallOptions & { maxBytes?: number } = {}): Promise<Download> {
    return this.transport.download(url, o.signal, o.maxBytes ?? DOWNLOAD_CAP);
  }

  async sendMessage(sessionId: string, body: SendMessageBody, o: CallOptions = {}): Promise<SentMessage> {
    const json = await this.send(
      {
        method: 'POST',
        url: this.urls.sessionMessages(sessionId),
        body,
        badRequest: 'bad_request',
        creates: createsMessage(sessionId),
      },
      o.signal,
    );
    return created(() => asSentMessage(json, sessionId), createsMessage(sessionId));
  }

  /** One page of messages; the threaded form when `target.threadId` is set. */
  async listMessages(target: ThreadTarget, query: ListQuery, o: CallOptions = {}): Promise<MessagePage> {
    const json = await this.send(
      { method: 'GET', url: this.urls.messages(target, query) },
      o.signal,
      { ownRetries: o.ownRetries === true, ...(o.onRetry ? { onRetry: o.onRetry } : {}) },
    );
    const page = asMessagePage(json, target.sessionId);
    if (this.onListed !== undefined) {
      const mine = page.items.filter((m) => foreignTo({ sessionId: target.sessionId }, m) === undefined);
      await this.onListed(target, mine);
    }
    return page;
  }

  /**
   * Whether a listed message is of `target`: false (and the owner told, unless it is a system notice on a
   * thread's list) when the server's filter let another session's or thread's message through.
   */
  belongs(target: ThreadTarget, m: Message): boolean {
    const why = foreignTo(target, m);
    if (why === undefined) return true;
    if (why !== 'notice') this.onForeign?.({ why, target, message: m });
    return false;
  }

  /**
   * Every message of `target` matching the query, page by page with limit=100 (page/limit of the query
   * ignored), each once, messages of other sessions or threads dropped; paging that makes no progress
   * ends with an error (PageGuard).
   */
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
