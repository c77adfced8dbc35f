// A call's data or its failure as an MCP tool result. A failure of any kind (a bad argument, an unknown
// session, a missing key, a busy key) is a result with isError and one line with its hint: never a
// protocol error, never the end of the server.
import { redact, toCliError } from '../core/index.js';
import { escapeForLine } from '../util/text.js';
import type { ToolOutcome } from './turn-result.js';

/** A tools/call result (the MCP CallToolResult shape, as far as this server fills it). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A call's answer as a result: its text, and its data as structuredContent. */
export function resultOf(answer: ToolOutcome): ToolResult {
  return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured };
}

/** The one line of a failure: `error: …; hint: …`. */
export function failureLine(err: unknown): string {
  const e = toCliError(err);
  const message = escapeForLine(e.message.split('\n')[0] ?? '');
  return `error: ${message}${e.hint ? `; hint: ${escapeForLine(e.hint)}` : ''}`;
}

/** A failure as a result the agent reads and acts on. */
export function errorResult(err: unknown, secret: string | undefined): ToolResult {
  return { content: [{ type: 'text', text: redact(failureLine(err), secret) }], isError: true };
}
