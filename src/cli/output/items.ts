// What commands return for the presenter to print: data, never text. Each kind is printed one way per
// output mode (JSON, terminal, plain) by presenter.ts.
import type { Artifact, SentMessage, Session } from '../../core/api/types.js';
import type { Conversation } from '../../core/conversation/model.js';
import type { ConfigEntry, ConfigListing } from './render-config.js';
import type { KnownSession } from '../../core/state/known-sessions.js';
import type { SessionItem } from '../../core/events/session-items.js';
import type { BudgetView } from '../../core/budget/budget-view.js';

/** One thing a command produced: what src/core/sessions yields while posting and waiting, and the rest. */
export type Item =
  | SessionItem
  /** A new session; `waiting` when the command goes on to wait for its reply. */
  | { kind: 'session-created'; session: Session; waiting: boolean }
  /**
   * create --attempts: the new session group and the attempts the service took (of `of` asked for, each
   * with its number); `waiting` as above.
   */
  | {
      kind: 'attempts-created';
      group: string;
      attempts: { attempt: number; session: Session }[];
      of: number;
      waiting: boolean;
    }
  /** A follow-up posted; `waiting` as above. */
  | { kind: 'message-sent'; sessionId: string; sent: SentMessage; waiting: boolean }
  /**
   * A session and its conversation (show): the entries shown (the service's copy of each final left
   * out) and the notices among them. `threads`: the session's threads in order, for turn numbers.
   */
  | {
      kind: 'conversation';
      session: Session;
      conversation: Conversation;
      threads: string[];
      /** Set when older messages were left out: how many are shown. */
      truncatedTo?: number;
      /** The session's latest thread, when the agent is still on it (no final reply yet). */
      running?: string;
      /** The agent, when known (the service's agent_name, or this machine's record). */
      agent?: string;
      /** --verbose: ids in the terminal's headings. */
      verbose?: boolean;
      /** Whether a terminal may page it (false with --no-pager). */
      page: boolean;
    }
  /** A downloaded artifact (plan or artifact): its record and bytes, or the file they went to. */
  | {
      kind: 'artifact';
      what: 'plan' | 'artifact';
      artifact: Artifact;
      bytes: Buffer;
      contentType: string | undefined;
      /** Set when the bytes were written to this file instead of stdout. */
      written?: string;
    }
  /** The sessions this machine created or sent to (ls), the most recently used first. */
  | { kind: 'sessions'; profile: string; baseUrl: string | undefined; sessions: KnownSession[] }
  /** A dashboard address for the browser (open, show --web): opened where one can be, else printed. */
  | { kind: 'browse'; url: string }
  /** A chat was left: the session it was on (if one was started) and how to come back to it. */
  | { kind: 'chat-ended'; sessionId: string | undefined }
  /** The settings in effect (config list). */
  | { kind: 'config-list'; listing: ConfigListing }
  /** One setting (config get). */
  | { kind: 'config-entry'; entry: ConfigEntry }
  /** Data for stdout that is a value as it stands (a config value, a path): a line, or `json` with --json. */
  | { kind: 'value'; text: string | undefined; json: unknown }
  /**
   * A pull request on a local branch (checkout): the session, the pull request's address, the remote it was
   * fetched from, the branch, its commit now, the pull request's head, the branch's commit before (when it
   * existed), and how many commits of its own the branch kept beyond the head (it is never moved back).
   */
  | {
      kind: 'checkout';
      sessionId: string;
      pullRequest: string;
      remote: string;
      branch: string;
      commit: string;
      head: string;
      before: string | undefined;
      ahead: number;
    }
  /** A pull request's change (diff), as git wrote it, against the remote's default branch `base`. */
  | {
      kind: 'diff';
      sessionId: string;
      pullRequest: string;
      remote: string;
      base: string;
      head: string;
      bytes: Buffer;
    }
  /**
   * A key's budget (budget): where it is kept (a path, or a Redis address; `fleet` for Redis), and its view,
   * undefined when no process has used the key there. `watch`: one reading of many (--watch).
   */
  | {
      kind: 'budget';
      origin: string;
      where: string;
      fleet: boolean;
      view: BudgetView | undefined;
      watch: boolean;
    }
  /** A line for a person on stderr (silenced by --quiet). */
  | { kind: 'note'; text: string };
/** What a command returns: nothing, one item, or items as they come. */
export type Result = void | Item | Iterable<Item> | AsyncIterable<Item>;
