// checkout and diff: `--pr`, which of a session's pull requests, declared once so both read the same.
import { Option } from 'commander';
import { pullRequestPickArg } from '../../input/pull-request-choice.js';
import { intOption } from './option-values.js';

/** `--pr N|URL`: its number or address, checked as the arguments are parsed. */
export function pullRequestOption(): Option {
  return new Option(
    '--pr <n|url>',
    'which of the session’s pull requests (its number or address); needed when it has several',
  ).argParser(pullRequestPickArg);
}

/** `--attempt K`: which attempt of a session group (`create --attempts`) the session argument names. */
export function attemptOption(): Option {
  return new Option(
    '--attempt <k>',
    'of the session group given (or last, after create --attempts): attempt K (1 to 5)',
  ).argParser(intOption(1, 5));
}
