// What commands return for the presenter to print: data, never text. Each kind is printed one way per
// output mode (JSON, terminal, plain) by presenter.ts.
import type { Artifact, Message, SentMessage, Session } from '../api/types.js';
import type { Conversation, Entry } from '../conversation/model.js';
import type { ConfigEntry, ConfigListing } from './render-config.js';
import type { KnownSession } from '../state/known-sessions.js';
import type { Notification } from './notify.js';
import type { WaitResult } from './github.js';

/** One thing a command produced. */
export type Item =
  /** A new session; `waiting` when the command goes on to wait for its reply. */
  | { kind: 'session-created'; session: Session; waiting: boolean }
  /** A follow-up posted; `waiting` as above. */
  | { kind: 'message-sent'; sessionId: string; sent: SentMessage; waiting: boolean }
  /**
   * One entry of a follow or a tail, as it lands. `repeats`: a final reply whose text was just shown as
   * a message (the live service's copy came first).
   */
  | { kind: 'entry'; entry: Entry; repeats?: boolean }
  /** The final reply a --wait waited for. */
  /** A final reply; with `result`, what --json prints for a CI job (the message's fields and the result's). */
  | { kind: 'reply'; message: Message; result?: WaitResult }
  /** A wait that timed out, for --json: where the session is, and that it timed out. */
  | { kind: 'wait-result'; result: WaitResult }
  /** Text appended to a file the CI runner reads ($GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT). */
  | { kind: 'github'; output: string; text: string }
  /** A final reply `agents wait` waited for, among others: which session and thread, and its title when known. */
  | { kind: 'wait-reply'; sessionId: string; threadId: string; title?: string; message: Message }
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
  | { kind: 'sessions'; profile: string; sessions: KnownSession[] }
  /** A dashboard address for the browser (open, show --web): opened where one can be, else printed. */
  | { kind: 'browse'; url: string }
  /** The end of a wait asked to be announced (--notify): a bell and a desktop notification on a terminal. */
  | { kind: 'notify'; notification: Notification }
  /** What to type next, on a terminal: after work left running, or after a reply arrived. */
  | { kind: 'next-steps'; sessionId: string; finished: boolean }
  /** A chat was left: the session it was on (if one was started) and how to come back to it. */
  | { kind: 'chat-ended'; sessionId: string | undefined }
  /** The settings in effect (config list). */
  | { kind: 'config-list'; listing: ConfigListing }
  /** One setting (config get). */
  | { kind: 'config-entry'; entry: ConfigEntry }
  /** Data for stdout that is a value as it stands (a config value, a path): a line, or `json` with --json. */
  | { kind: 'value'; text: string | undefined; json: unknown }
  /** A line for a person on stderr (silenced by --quiet). */
  | { kind: 'note'; text: string }
  /** A warning on stderr (silenced by --quiet). */
  | { kind: 'warning'; text: string }
  /** An error on stderr that does not end the run at once (one of several waits failed); never silenced. */
  | { kind: 'error'; text: string; hint?: string };

/** What a command returns: nothing, one item, or items as they come. */
export type Result = void | Item | Iterable<Item> | AsyncIterable<Item>;
