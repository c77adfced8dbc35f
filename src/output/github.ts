// What a CI job gets from a wait: one result (the session and thread ids, the web address, the status, the
// final reply, the session's pull requests), and under GitHub Actions a step summary and step outputs in
// the files the runner names. Pure: the text of each; the presenter appends them.
import { randomBytes } from 'node:crypto';
import type { PullRequestRef } from '../api/types.js';

/** How a wait ended, as a CI job reads it. */
export interface WaitResult {
  session_id: string;
  thread_id: string | null;
  session_html_url: string | null;
  status: 'completed' | 'timed_out';
  /** The final reply's text; null when the wait timed out. */
  final_message: string | null;
  /** As the session lists them after the turn (strings or `{url, status}` objects). */
  pull_requests: (string | PullRequestRef)[];
}

const prUrl = (pr: string | PullRequestRef) => (typeof pr === 'string' ? pr : pr.url);

/** Pure: `name<<DELIMITER` blocks for $GITHUB_OUTPUT (multi-line values whole); a delimiter in no value. */
export function githubOutputs(
  fields: Record<string, string>,
  delimiter = `agents_${randomBytes(8).toString('hex')}`,
): string {
  return Object.entries(fields)
    .map(([name, value]) => `${name}<<${delimiter}\n${value}\n${delimiter}\n`)
    .join('');
}

/** Pure: the step outputs of a result (pull requests as a JSON array of their addresses). */
export function resultOutputs(r: WaitResult): Record<string, string> {
  return {
    final_message: r.final_message ?? '',
    pull_requests: JSON.stringify(r.pull_requests.map(prUrl)),
    status: r.status,
  };
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
    `- status: **${r.status === 'completed' ? 'completed' : 'timed out'}**`,
    `- session: \`${r.session_id}\`${r.thread_id ? `, thread \`${r.thread_id}\`` : ''}`,
  ];
  const prs = r.pull_requests.map((pr) =>
    typeof pr === 'string'
      ? `  - ${encodeURI(pr)}`
      : `  - ${encodeURI(pr.url)}${pr.status ? ` (${inline(pr.status)})` : ''}`,
  );
  lines.push(prs.length > 0 ? '- pull requests:' : '- pull requests: none', ...prs);
  if (r.final_message !== null) {
    // A fence longer than any run of backticks in the reply, so the reply cannot close it.
    const longest = Math.max(2, ...(r.final_message.match(/`+/g) ?? []).map((m) => m.length));
    const fence = '`'.repeat(longest + 1);
    lines.push(
      '',
      '<details><summary>Final reply</summary>',
      '',
      `${fence}markdown`,
      r.final_message,
      fence,
      '',
      '</details>',
    );
  }
  return `${lines.join('\n')}\n\n`;
}
