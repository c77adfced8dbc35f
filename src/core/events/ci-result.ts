import type { PullRequestRef } from '../api/types.js';
import type { SchemaError } from './schema-errors.js';

/** How a wait ended, as a CI job reads it (--wait --json, the step summary and outputs, the Action, MCP). */
export interface WaitResult {
  session_id: string;
  thread_id: string | null;
  session_html_url: string | null;
  /** schema_mismatch: the reply never matched --output-schema, however often it was asked for again. */
  status: 'completed' | 'timed_out' | 'schema_mismatch';
  /** The final reply's text; null when the wait timed out. */
  final_message: string | null;
  /** As the session lists them after the turn (strings or `{url, status}` objects). */
  pull_requests: (string | PullRequestRef)[];
  /** With --output-schema, once matched: the value taken from the reply. */
  structured_output?: unknown;
  /** With --output-schema: how many replies were checked (the first, then one per follow-up). */
  schema_attempts?: number;
  /** With --output-schema, never matched: what was wrong with the last reply. */
  schema_errors?: SchemaError[];
}
