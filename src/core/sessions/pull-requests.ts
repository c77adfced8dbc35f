import type { PullRequestRef, Session } from '../api/types.js';

/**
 * A session's pull requests as `{url, status?}`, in the service's order. The field is read leniently
 * (schemas/fields.ts `kept`): anything listed without an address is left out.
 */
export function sessionPullRequests(session: Pick<Session, 'pull_requests'>): PullRequestRef[] {
  const list: unknown[] = Array.isArray(session.pull_requests) ? session.pull_requests : [];
  return list.flatMap((p) => {
    if (typeof p === 'string') return [{ url: p }];
    const { url, status } = (typeof p === 'object' && p !== null ? p : {}) as Partial<
      Record<string, unknown>
    >;
    if (typeof url !== 'string') return [];
    return [typeof status === 'string' ? { url, status } : { url }];
  });
}
