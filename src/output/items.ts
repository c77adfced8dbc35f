// What commands return for the presenter to print: data, never text. Each kind is printed one way per
// output mode (JSON, terminal, plain) by presenter.ts.
import type { Artifact, Message, SentMessage, Session } from '../api/types.js';
import type { ConfigEntry, ConfigListing } from './render-config.js';

/** One thing a command produced. */
export type Item =
  /** A new session; `waiting` when the command goes on to wait for its reply. */
  | { kind: 'session-created'; session: Session; waiting: boolean }
  /** A follow-up posted; `waiting` as above. */
  | { kind: 'message-sent'; sessionId: string; sent: SentMessage; waiting: boolean }
  /** One message of a follow or a tail, as it lands. */
  | { kind: 'message'; message: Message }
  /** The final reply a --wait waited for. */
  | { kind: 'reply'; message: Message }
  /** A final reply `agents wait` waited for, among others: which session and thread, and its title when known. */
  | { kind: 'wait-reply'; sessionId: string; threadId: string; title?: string; message: Message }
  /** A session and its messages (show). `threads`: every thread of the session in order, for turn numbers. */
  | {
      kind: 'conversation';
      session: Session;
      messages: Message[];
      threads: string[];
      /** Set when older messages were left out: how many are shown. */
      truncatedTo?: number;
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
  /** What to type next, on a terminal: after work left running, or after a reply arrived. */
  | { kind: 'next-steps'; sessionId: string; finished: boolean }
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
