// How a wait ends as a CI job reads it, and under GitHub Actions the text of its step summary and outputs.
import { randomBytes } from 'node:crypto';
import type { PullRequestRef } from '../api/types.js';
import type { SchemaError } from '../errors/agents-error.js';

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

/** Pure: `name<<DELIMITER` blocks for $GITHUB_OUTPUT (multi-line values whole); a delimiter in no value. */
export function githubOutputs(
  fields: Record<string, string>,
  delimiter = `agents_${randomBytes(8).toString('hex')}`,
): string {
  return Object.entries(fields)
    .map(([name, value]) => `${name}<<${delimiter}\n${value}\n${delimiter}\n`)
    .join('');
}

/** Pure: the step outputs of a result (pull requests, a matched schema's value and errors as JSON). */
export function resultOutputs(r: WaitResult): Record<string, string> {
  return {
    final_message: r.final_message ?? '',
    pull_requests: JSON.stringify(r.pull_requests.map((pr) => (typeof pr === 'string' ? pr : pr.url))),
    status: r.status,
    ...('structured_output' in r ? { structured_output: JSON.stringify(r.structured_output) } : {}),
    ...(r.schema_errors ? { schema_errors: JSON.stringify(r.schema_errors) } : {}),
  };
}

const STATUS: Record<WaitResult['status'], string> = {
  completed: 'completed',
  timed_out: 'timed out',
  schema_mismatch: 'the answer did not match the schema',
};

/** A fenced block around `text` that `text` cannot close: longer than any run of backticks in it. */
function fenced(text: string, info: string): string[] {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${info}`, text, fence];
}

/** Markdown text made inert in a table cell or a line: no HTML, no breaking out of the table. */
function inline(text: string): string {
  return text.replace(
    /[<>&|`\r\n]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '|': '\\|', '`': '\\`' })[c] ?? ' ',
  );
}

/** Pure: the step summary of a result: the session, the status, the pull requests, the reply folded. */
export function stepSummary(r: WaitResult, title?: string): string {
  const name = inline(title || `session ${r.session_id}`);
  const lines = [
    `### agents: ${r.session_html_url ? `[${name}](${encodeURI(r.session_html_url)})` : name}`,
    '',
    `- status: **${STATUS[r.status]}**${r.schema_attempts ? ` (schema: ${r.schema_attempts} ${r.schema_attempts === 1 ? 'try' : 'tries'})` : ''}`,
    `- session: \`${r.session_id}\`${r.thread_id ? `, thread \`${r.thread_id}\`` : ''}`,
  ];
  const prs = r.pull_requests
    .map((pr) => (typeof pr === 'string' ? { url: pr, status: undefined } : pr))
    .map((pr) => `  - ${encodeURI(pr.url)}${pr.status ? ` (${inline(pr.status)})` : ''}`);
  lines.push(prs.length > 0 ? '- pull requests:' : '- pull requests: none', ...prs);
  if (r.schema_errors !== undefined) {
    lines.push(
      '- schema errors:',
      ...r.schema_errors.map((e) => `  - ${inline(e.path || '(the value)')}: ${inline(e.message)}`),
    );
  }
  if ('structured_output' in r) {
    lines.push(
      '',
      '**Structured output**',
      '',
      ...fenced(JSON.stringify(r.structured_output, null, 2), 'json'),
    );
  }
  if (r.final_message !== null) {
    lines.push(
      '',
      '<details><summary>Final reply</summary>',
      '',
      ...fenced(r.final_message, 'markdown'),
      '',
      '</details>',
    );
  }
  return `${lines.join('\n')}\n\n`;
}
