// Every address the client requests is built or vetted here: the base URL, path parameters (one encoding
// helper), list queries, and `_links` hrefs under the same-origin rule, so the key goes to one origin only.
import { UsageError } from '../errors.js';
import { ApiError } from './errors.js';
import { MESSAGE_TYPES, ROLES, type ListQuery, type MessageType, type Role } from './types.js';

/** Where a message list lives: a session, or one thread of it. */
export interface ThreadTarget {
  sessionId: string;
  threadId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one path-parameter encoder. */
export function encodePath(segment: string): string {
  return encodeURIComponent(segment);
}

/** A light check before a request: the CLI validates references earlier, this keeps junk off the wire. */
export function assertUuid(value: string, what: string): void {
  if (!UUID.test(value)) throw new UsageError(`invalid ${what} "${value.slice(0, 60)}": expected a UUID`);
}

/** The query string of List session messages (`type` repeated), with its leading `?`, or ''. */
export function buildQuery(query: ListQuery): string {
  const params = new URLSearchParams();
  for (const type of query.type ?? []) params.append('type', type);
  if (query.role !== undefined) params.set('role', query.role);
  if (query.thread_id !== undefined) params.set('thread_id', query.thread_id);
  if (query.gts !== undefined) params.set('gts', String(query.gts));
  if (query.page !== undefined) params.set('page', String(query.page));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.direction !== undefined) params.set('direction', query.direction);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function numberParam(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads a list query back from a URL's search params (unknown values are dropped). */
export function parseQuery(params: URLSearchParams): ListQuery {
  const query: ListQuery = {};
  const types = params
    .getAll('type')
    .filter((t): t is MessageType => (MESSAGE_TYPES as readonly string[]).includes(t));
  if (types.length > 0) query.type = types;
  const role = params.get('role');
  if (role !== null && (ROLES as readonly string[]).includes(role)) query.role = role as Role;
  const threadId = params.get('thread_id');
  if (threadId !== null && threadId !== '') query.thread_id = threadId;
  const gts = numberParam(params, 'gts');
  if (gts !== undefined) query.gts = gts;
  const page = numberParam(params, 'page');
  if (page !== undefined) query.page = page;
  const limit = numberParam(params, 'limit');
  if (limit !== undefined) query.limit = limit;
  const direction = params.get('direction');
  if (direction === 'asc' || direction === 'desc') query.direction = direction;
  return query;
}

/** The API's addresses under one base URL. */
export class ApiUrls {
  /** `scheme://host:port` of the base URL: the only origin that ever receives the key. */
  readonly origin: string;
  /** The base URL's path without a trailing slash ('' at the root). */
  readonly basePath: string;
  /** `{origin}{basePath}/rest/v1`. */
  readonly root: string;

  constructor(baseUrl: string) {
    let url: URL;
    try {
      url = new URL(baseUrl.trim());
    } catch {
      throw new UsageError(
        `invalid base URL "${baseUrl.slice(0, 100)}"`,
        'use an address like https://api.example.com',
      );
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new UsageError(`invalid base URL "${url.href.slice(0, 100)}": not http or https`);
    }
    if (url.username !== '' || url.password !== '') {
      throw new UsageError('the base URL must not carry a user name or password');
    }
    this.origin = url.origin;
    // Tolerate a trailing slash, and a base URL given with /rest/v1 already on it.
    this.basePath = url.pathname.replace(/\/+$/, '').replace(/\/rest\/v1$/, '');
    this.root = `${this.origin}${this.basePath}/rest/v1`;
  }

  sessions(): string {
    return `${this.root}/sessions`;
  }

  session(sessionId: string): string {
    assertUuid(sessionId, 'session id');
    return `${this.root}/sessions/${encodePath(sessionId)}`;
  }

  /** The messages collection (also the target of Send message). */
  sessionMessages(sessionId: string): string {
    return `${this.session(sessionId)}/messages`;
  }

  /** List session messages, the threaded form when `threadId` is set. */
  messages(target: ThreadTarget, query: ListQuery = {}): string {
    if (target.threadId === undefined) return `${this.sessionMessages(target.sessionId)}${buildQuery(query)}`;
    assertUuid(target.threadId, 'thread id');
    const path = `${this.session(target.sessionId)}/threads/${encodePath(target.threadId)}/messages`;
    return `${path}${buildQuery(query)}`;
  }

  /**
   * Vets a `_links` href. Only our origin is ever contacted: when the href's path is under our API root
   * (`{basePath}/rest/v1/…`), or under a bare `/rest/v1/…` (a service that does not know about the gateway
   * prefix in front of it), its path and query are rebased onto our root, whatever its origin says.
   * Anything else is refused. The fragment is dropped.
   */
  resolveHref(href: string): { url: string; rebased: boolean } {
    let url: URL;
    try {
      url = new URL(href, `${this.origin}/`);
    } catch {
      throw refused(href, 'not a valid address');
    }
    const prefix = `${this.basePath}/rest/v1/`;
    let rest: string | undefined;
    if (url.pathname.startsWith(prefix)) rest = url.pathname.slice(prefix.length);
    else if (url.pathname.startsWith('/rest/v1/')) rest = url.pathname.slice('/rest/v1/'.length);
    if (rest === undefined || rest.split('/').includes('..')) {
      throw refused(href, `its path is not under ${this.basePath}/rest/v1/`);
    }
    const resolved = `${this.root}/${rest}${url.search}`;
    return { url: resolved, rebased: resolved !== url.href };
  }

  /** Splits a messages href (final_message, thread, new_messages, self) into its target and query. */
  parseListHref(href: string): { target: ThreadTarget; query: ListQuery } {
    const url = new URL(this.resolveHref(href).url);
    const rest = url.pathname.slice(new URL(this.root).pathname.length);
    const match = /^\/sessions\/([^/]+)(?:\/threads\/([^/]+))?\/messages\/?$/.exec(rest);
    if (!match) throw refused(href, 'it is not a messages list address');
    const target: ThreadTarget = { sessionId: decodeURIComponent(match[1]!) };
    if (match[2] !== undefined) target.threadId = decodeURIComponent(match[2]);
    return { target, query: parseQuery(url.searchParams) };
  }
}

function refused(href: string, why: string): ApiError {
  let shown = href;
  try {
    // The query never matters to the reader and could hold anything; the origin and path say enough.
    const url = new URL(href);
    shown = `${url.origin}${url.pathname}`;
  } catch {
    // Keep the raw text (capped by ApiError).
  }
  return new ApiError({
    kind: 'unexpected',
    message: `refusing to follow the link ${shown.slice(0, 150)}: ${why}`,
    hint: 'the service returned a link outside the configured base URL; check --base-url / AGENTS_BASE_URL',
  });
}
