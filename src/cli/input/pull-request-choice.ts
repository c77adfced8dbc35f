// Which of a session's pull requests a command works on. The API lists them without the turn that opened
// each, so the latest turn's is certain only when there is one: else `--pr N|URL` picks, a person at a
// terminal chooses (the last listed first), a script gets an error naming them (exit 2).
import { CliError, ExitCode, UsageError } from '../../core/index.js';
import type { Prompts } from '../output/prompts.js';
import { escapeForLine } from '../../util/text.js';

/** `--pr`: a pull request's number, or its address. */
export type PullRequestPick = { kind: 'number'; n: number } | { kind: 'url'; url: string };

/** Parses `--pr` (for commander): a positive number or an http(s) address. */
export function pullRequestPickArg(text: string): PullRequestPick {
  const t = text.trim().replace(/^#/, '');
  if (/^[1-9][0-9]{0,9}$/.test(t)) return { kind: 'number', n: Number(t) };
  if (/^https?:\/\/\S+$/i.test(t)) return { kind: 'url', url: t };
  throw new UsageError(
    `not a pull request: ${JSON.stringify(text)}`,
    'give its number (--pr 12) or its address',
  );
}

/** The number an address ends its `/pull/<n>` with, if it does. */
function numberOf(url: string): number | undefined {
  const m = /\/pull\/([0-9]+)(?:[/?#]|$)/.exec(url);
  return m ? Number(m[1]) : undefined;
}

const sameUrl = (a: string, b: string) =>
  a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();

/** The pull request to work on: the only one, the one `pick` names, or the one a person chooses. */
export async function choosePullRequest(
  sessionId: string,
  urls: readonly string[],
  pick: PullRequestPick | undefined,
  prompts: Prompts | undefined,
): Promise<string> {
  if (urls.length === 0) {
    throw new CliError(`session ${sessionId} has no pull request yet`, {
      exitCode: ExitCode.NOT_FOUND,
      hint: `wait for the agent to open one: agents wait ${sessionId}`,
    });
  }
  const listed = urls.join(', ');
  if (pick !== undefined) {
    const found = urls.filter((u) => (pick.kind === 'url' ? sameUrl(u, pick.url) : numberOf(u) === pick.n));
    if (found.length === 1) return found[0] ?? '';
    const which = pick.kind === 'url' ? pick.url : `#${pick.n}`;
    throw new UsageError(
      found.length === 0
        ? `session ${sessionId} has no pull request ${which}; it has ${listed}`
        : `--pr ${which} matches several pull requests: ${found.join(', ')}`,
      found.length === 0 ? 'give one of those to --pr' : 'give the pull request’s address to --pr',
    );
  }
  if (urls.length === 1) return urls[0] ?? '';
  if (prompts === undefined) {
    throw new UsageError(
      `session ${sessionId} has ${urls.length} pull requests: ${listed}`,
      'pick one with --pr N or --pr URL',
    );
  }
  // One line each: an address holding a line break would otherwise add a line to the list.
  const newestFirst = [...urls].reverse().map((u) => ({ value: u, name: escapeForLine(u) }));
  return prompts.choice('Pull request:', newestFirst);
}
