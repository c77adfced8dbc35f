// What src/core/sessions yields while a command posts and waits: data, never text (the presenter prints it).
import type { Message } from '../api/types.js';
import type { Entry } from '../conversation/model.js';
import type { WaitResult } from './ci-result.js';
import type { SchemaError } from '../errors/agents-error.js';

/** What a status line of `agents wait` shows of one session. */
export interface StatusRow {
  sessionId: string;
  title?: string;
  /** The agent, when this machine started the session (the API does not say). */
  agent?: string;
  state: 'starting' | 'waiting' | 'retrying' | 'done' | 'failed' | 'stopped';
  /** A word or two after the state (the error kind of a failure). */
  detail?: string;
  /** When its wait began and ended (ms). */
  since: number;
  until?: number;
}

/** What was wrong with a reply checked against a schema: no JSON in it, or the schema's errors. */
export type SchemaProblem = { kind: 'no-json' } | { kind: 'mismatch'; errors: SchemaError[] };

/** One thing a post or a wait produced. */
export type SessionItem =
  /** An entry of a follow or a tail; `repeats`: a final whose text was just shown as a message. */
  | { kind: 'entry'; entry: Entry; repeats?: boolean }
  /** A final reply; with `result`, what --json prints for a CI job (the message's fields and the result's). */
  | { kind: 'reply'; message: Message; result?: WaitResult }
  /** --output-schema: the reply matched; `value` is the JSON taken from it (with `result` for a CI job). */
  | { kind: 'structured-reply'; value: unknown; message: Message; result?: WaitResult }
  /** --output-schema: the last reply never matched; what was wrong with it (the error that ends the run follows). */
  | { kind: 'schema-mismatch'; problem: SchemaProblem }
  /** A wait that ended without a reply to print (timed out, or never matched the schema): its result. */
  | { kind: 'wait-result'; result: WaitResult }
  /** A wait began: what is awaited ("claude", "the reply") and on which session. */
  | { kind: 'waiting'; label: string; sessionId: string; url?: string; threadId?: string }
  /** What the agent just did while a wait goes on, for the progress line. */
  | { kind: 'activity'; entry: Entry }
  | { kind: 'waited' }
  /** Under GitHub Actions, before the wait: the ids for $GITHUB_OUTPUT (a later step links to the session). */
  | {
      kind: 'github-ids';
      output: string;
      ids: { session_id: string; thread_id: string; session_html_url: string };
    }
  /** Under GitHub Actions, after it: the result for $GITHUB_STEP_SUMMARY and/or $GITHUB_OUTPUT. */
  | { kind: 'github-result'; result: WaitResult; summary?: string; output?: string; title?: string }
  /** A wait ended (not stopped by the user): the turn's result as --json prints it, --notify as given. */
  | {
      kind: 'wait-ended';
      who: string;
      title?: string;
      outcome: 'replied' | 'timed-out' | 'failed';
      notify: boolean | undefined;
      result?: unknown;
    }
  /** --output-schema: a reply did not give the JSON asked for; `retry` of `of` follow-ups is being sent. */
  | { kind: 'schema-retry'; problem: SchemaProblem; retry: number; of: number }
  /** `agents wait` is following the session of `key`: its status line (undefined: no line for it). */
  | { kind: 'wait-status'; key: string; row: StatusRow | undefined }
  /** A final reply `agents wait` waited for, among others: which session and thread, and its title when known. */
  | {
      kind: 'wait-reply';
      sessionId: string;
      threadId: string;
      title?: string;
      message: Message;
      /** wait --output-schema: the JSON taken from the reply, which matched. */
      structured?: { value: unknown };
      /** The wait has more than one turn so far: a pipe's reader is told whose each reply is. */
      several: boolean;
    }
  /** What to type next, on a terminal: after work left running, or after a reply arrived. */
  | { kind: 'next-steps'; sessionId: string; finished: boolean }
  /** A warning on stderr (silenced by --quiet). */
  | { kind: 'warning'; text: string }
  /** An error on stderr that does not end the run at once (one of several waits failed); never silenced. */
  | { kind: 'error'; text: string; hint?: string };
