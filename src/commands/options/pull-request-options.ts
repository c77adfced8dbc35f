// checkout and diff: `--pr`, which of a session's pull requests, declared once so both read the same.
import { Option } from 'commander';
import { pullRequestPickArg } from '../../input/pull-request-choice.js';

/** `--pr N|URL`: its number or address, checked as the arguments are parsed. */
export function pullRequestOption(): Option {
  return new Option(
    '--pr <n|url>',
    'which of the session’s pull requests (its number or address); needed when it has several',
  ).argParser(pullRequestPickArg);
}
