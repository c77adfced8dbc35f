// What a create or send hands on once the service took its message: the turn, with --output-schema what the
// check needs, and the item that reports its CI result; shared by after-post.ts and checked-output.ts.
import type { ApiClient } from '../../../core/api/client.js';
import type { ReplyFlags } from '../../input/reply-flags.js';
import type { OutputSchema } from '../../../core/sessions/structured-output.js';
import type { Deadline } from '../../../core/sessions/deadline.js';
import type { WaitResult } from '../../../core/events/ci-result.js';
import type { SessionItem } from '../../../core/events/session-items.js';

/** What create and send know once the service has taken their message. */
export interface TurnStarted {
  client: ApiClient;
  sessionId: string;
  /** The new turn's thread, when the answer named one. */
  threadId: string | undefined;
  flags: ReplyFlags & { schema?: OutputSchema; schemaRetries?: number };
  deadline: Deadline;
  /** For --notify: who replies, and the session's title when known. */
  who: string;
  title?: string;
  /** What the progress line says is awaited, and the session's address (see ReplyWait). */
  label: string;
  url?: string;
  /** What the answer was, for the error when it named no thread: "session <id>", "the follow-up on …". */
  what: string;
}

/** How the CI job's result is reported: wanted at all (--json or GitHub), and which runner files. */
export interface Reporting {
  want: boolean;
  summary?: string;
  output?: string;
}

/** What checked-output.ts gets from afterPost: the turn, the schema, and how to make the CI result. */
export interface CheckedTurn extends TurnStarted {
  threadId: string;
  schema: OutputSchema;
  /** The CI result of a reply (or of none: null) on `thread`, the session's pull requests read. */
  result: (final: string | null, thread?: string) => Promise<WaitResult>;
  report: Reporting;
}

/** The item that writes a CI result to the runner's step summary and outputs, where `report` names them. */
export function reportedResult(
  report: Reporting,
  title: string | undefined,
  result: WaitResult,
): SessionItem {
  return { kind: 'github-result', result, summary: report.summary, output: report.output, title };
}
