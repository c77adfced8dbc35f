// The Session record: its public type, its contract (what the emulator serves) and the client's check of an
// answer.
import * as v from 'valibot';
import { checked, field, kept, NOT_A_UUID, record, unexpected, UUID, without, type Same } from './fields.js';

/** An absolute address carried in `_links`. */
export interface Link {
  /** The address. */
  href: string;
}

/** Session links; `thread` and `final_message` are set only in the create response. */
export interface SessionLinks {
  /** The session. */
  self: Link;
  /** Its messages. */
  messages: Link;
  /** The new turn's messages (create only). */
  thread: Link | null;
  /** The new turn's final reply (create only). */
  final_message: Link | null;
}

/** A pull request as the live service lists it; the spec lists plain strings. */
export interface PullRequestRef {
  /** The pull request's page. */
  url: string;
  /** `open`, `merged`, … */
  status?: string;
}

/** A session (conversation) of the caller's workspace. Fields the service adds are kept as they come. */
export interface Session {
  /** The session's id (a UUID). */
  id: string;
  /** Its title, set by the service (may be empty). */
  title: string;
  /** The pull requests the agent opened: URLs (the spec) or `{url, status}` (the live service). */
  pull_requests: (string | PullRequestRef)[];
  /** Where the session came from, when the service says. */
  source_url: string | null;
  /** Archived in the dashboard. */
  is_archived: boolean;
  /** Only its creator sees it. */
  is_private: boolean;
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601. */
  updated_at: string;
  /** The first turn's thread (the create response), else null. */
  thread_id: string | null;
  /** The session's page in the Blocks dashboard. */
  session_html_url: string;
  /** Addresses of the session's resources. */
  _links: SessionLinks;
  /** Live service: the latest artifact of each plan, oldest plan first. */
  plan_artifact_ids?: string[];
  /** Live service: the group the session belongs to. */
  session_group_id?: string | null;
  /** Fields the service adds, kept as they come. */
  [extra: string]: unknown;
}

export const LINK = v.object({ href: v.string() });
/** Text the client prints through the terminal sanitizer: null or left out is taken as none. */
const text = field(v.string(), without('text in title and session_html_url'), v.nullish(v.string()));

export const SESSION = record('session', {
  id: field(UUID, NOT_A_UUID),
  title: text,
  pull_requests: kept(v.array(v.union([v.string(), v.object({ url: v.string(), status: v.optional(v.string()) })]))),
  source_url: kept(v.nullable(v.string())),
  is_archived: kept(v.boolean()),
  is_private: kept(v.boolean()),
  created_at: kept(v.string()),
  updated_at: kept(v.string()),
  // Echoed, stored and put in URLs: a UUID when given.
  thread_id: field(v.nullable(UUID), NOT_A_UUID, v.optional(v.nullable(UUID))),
  session_html_url: text,
  _links: kept(
    v.object({
      self: LINK,
      messages: LINK,
      thread: v.nullable(LINK),
      final_message: v.nullable(LINK),
    }),
  ),
  plan_artifact_ids: field(
    v.optional(v.array(UUID)),
    NOT_A_UUID,
    v.nullish(v.array(UUID, without('a list in plan_artifact_ids')('session', ''))),
  ),
  session_group_id: kept(v.optional(v.nullable(UUID))),
});

void (true satisfies Same<Session, v.InferOutput<typeof SESSION.contract>>);

/** A session answered; `asked` is the id it must have (Get session). */
export function asSession(value: unknown, asked?: string): Session {
  const session = checked<Session>(SESSION, value);
  if (asked !== undefined && session.id.toLowerCase() !== asked.toLowerCase()) {
    throw unexpected(`asked for session ${asked}, the service answered with session ${session.id}`);
  }
  return session;
}
