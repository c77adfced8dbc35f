// What the Action says to the runner, in GitHub's own toolkit (@actions/core): the outputs, one annotation
// with its hint beneath, and the pair of lines the toolkit has no call for (::stop-commands::). Inputs, the
// masks, the log and the step summary are the toolkit's calls, made where they are used.
import { randomBytes } from 'node:crypto';
import { error, setOutput, warning } from '@actions/core';

/** One annotation: the message, and the hint on its own line beneath (the toolkit escapes the line break). */
export function annotate(level: 'error' | 'warning', message: string, hint?: string): void {
  const text = hint ? `${message}\nhint: ${hint}` : message;
  if (level === 'error') error(text);
  else warning(text);
}

/** Sets step outputs, in their order (each a `name<<delimiter` block of $GITHUB_OUTPUT, multi-line whole). */
export function setOutputs(fields: Record<string, string>): void {
  for (const [name, value] of Object.entries(fields)) setOutput(name, value);
}

/**
 * A pair of lines between which the runner runs no workflow command: the CLI's lines (which may quote the
 * service's text) go in the log between them, read as text only.
 */
export function stopCommands(): { stop: string; resume: string } {
  const token = `agents-${randomBytes(12).toString('hex')}`;
  return { stop: `::stop-commands::${token}`, resume: `::${token}::` };
}
