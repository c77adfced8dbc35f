// GitHub Actions' workflow commands as the Action writes them to its log (::add-mask::, ::error::,
// ::warning::, ::stop-commands::), and the step outputs it adds to $GITHUB_OUTPUT. Pure text, one helper each.
import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { githubOutputs } from '../output/github.js';

/** A command's data as the runner reads it back: `%`, CR and LF escaped, so text cannot start a command. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Asks the runner to hide `secret` in every later line of the log. */
export function addMask(secret: string): string {
  return `::add-mask::${escapeData(secret)}`;
}

/** One annotation: the message, and the hint on its own line beneath. */
export function annotation(level: 'error' | 'warning', message: string, hint?: string): string {
  return `::${level}::${escapeData(hint ? `${message}\nhint: ${hint}` : message)}`;
}

/**
 * A pair of lines between which the runner runs no workflow command: the CLI's lines (which may quote the
 * service's text) go in the log between them, read as text only.
 */
export function stopCommands(): { stop: string; resume: string } {
  const token = `agents-${randomBytes(12).toString('hex')}`;
  return { stop: `::stop-commands::${token}`, resume: `::${token}::` };
}

/** The names of the outputs $GITHUB_OUTPUT's text sets (`name<<DELIM` blocks and `name=value` lines). */
export function outputNames(text: string): Map<string, string> {
  const seen = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2] ?? '', i + 1);
      if (end === -1) break;
      seen.set(block[1] ?? '', lines.slice(i + 1, end).join('\n'));
      i = end;
    } else {
      const eq = line.indexOf('=');
      if (eq > 0) seen.set(line.slice(0, eq), line.slice(eq + 1));
    }
  }
  return seen;
}

/** Appends step outputs to $GITHUB_OUTPUT (nothing where the runner names no such file). */
export function setOutputs(file: string | undefined, fields: Record<string, string>): void {
  if (file === undefined || file === '' || Object.keys(fields).length === 0) return;
  appendFileSync(file, githubOutputs(fields));
}
