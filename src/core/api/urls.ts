// Every address the client requests is built here. The client never follows an href the service returns
// (the live service builds them from its own environment), so the key only ever goes to the configured origin.
import { isUuid } from '../../util/uuid.js';
import type { ListQuery } from './types.js';

/** Where a message list lives: a session, or one thread of it. */
export type ThreadTarget = { sessionId: string; threadId?: string };

/** A last check before a request: the CLI validates references earlier; this keeps junk off the wire. */
export function assertUuid(value: string, what: string): void {
  if (!isUuid(value)) throw new TypeError(`invalid ${what} "${value.slice(0, 60)}": expected a UUID`);
}

/** The query string of List session messages (`type` and `role` repeated), with its leading `?`, or ''. */
function buildQuery(query: ListQuery): string {
  const params = new URLSearchParams();
  for (const type of query.type ?? []) params.append('type', type);
  const roles = query.role === undefined ? [] : Array.isArray(query.role) ? query.role : [query.role];
  for (const role of roles) params.append('role', role);
  for (const key of ['thread_id', 'gts', 'page', 'limit', 'direction'] as const) {
    if (query[key] !== undefined) params.set(key, String(query[key]));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export class ApiUrls {
  /** `scheme://host:port` of the base URL: the only origin that ever receives the key. */
  readonly origin: string;
  /** `{origin}{basePath}`: the base URL as requests use it. */
  readonly base: string;
  /** `{base}/rest/v1`. */
  readonly root: string;

  /** `baseUrl` is validated by the caller: one that is no http(s) URL is a programming error. */
  constructor(baseUrl: string) {
    const url = new URL(baseUrl.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new TypeError(`invalid base URL "${url.href.slice(0, 100)}": not http or https`);
    }
    this.origin = url.origin;
    // Tolerate a trailing slash, and a base URL given with /rest/v1 already on it.
    this.base = `${this.origin}${url.pathname.replace(/\/+$/, '').replace(/\/rest\/v1$/, '')}`;
    this.root = `${this.base}/rest/v1`;
  }

  sessions(): string {
    return `${this.root}/sessions`;
  }

  session(sessionId: string): string {
    assertUuid(sessionId, 'session id');
    return `${this.root}/sessions/${encodeURIComponent(sessionId)}`;
  }

  /** Also the target of Send message. */
  sessionMessages(sessionId: string): string {
    return `${this.session(sessionId)}/messages`;
  }

  messages(target: ThreadTarget, query: ListQuery = {}): string {
    if (target.threadId === undefined) return `${this.sessionMessages(target.sessionId)}${buildQuery(query)}`;
    assertUuid(target.threadId, 'thread id');
    const path = `${this.session(target.sessionId)}/threads/${encodeURIComponent(target.threadId)}/messages`;
    return `${path}${buildQuery(query)}`;
  }

  artifact(sessionId: string, artifactId: string): string {
    assertUuid(artifactId, 'artifact id');
    return `${this.session(sessionId)}/artifacts/${encodeURIComponent(artifactId)}`;
  }
}
