// The arguments and options several commands share, declared once so their help reads the same everywhere.
import { Argument, Option } from 'commander';
import { durationOption, intOption } from './option-values.js';
import { sessionRefArg } from '../../../core/sessions/refs.js';
import { threadOptionArg } from '../../input/wait-ref.js';
import { pullRequestPickArg } from '../../input/pull-request-choice.js';

export const SESSION_ARG = 'session id, address (…/sessions/<id>), or "last"';

export function sessionArg(): Argument {
  return new Argument('<session>', SESSION_ARG).argParser(sessionRefArg);
}

/** `[session]`: optional to commander; a terminal offers a choice, a script gets the usage error. */
export function sessionOrPickArg(leftOut = 'at a terminal, chosen from `agents ls` when left out'): Argument {
  return new Argument('[session]', `${SESSION_ARG}; ${leftOut}`).argParser(sessionRefArg);
}

/** An option whose value is checked by `parser` while the arguments are parsed (a new one per command). */
const checked = (flags: string, help: string, parser: (value: string) => unknown) => (): Option =>
  new Option(flags, help).argParser(parser);

// show and tail: its session part checked against `<session>` by input/wait-ref.ts.
export const threadOption = checked(
  '--thread <thread>',
  'only this thread: its id, or <session>/<thread> as send prints it',
  threadOptionArg,
);

export const readTimeoutOption = checked(
  '--timeout <duration>',
  'bound the whole read, retries included: 90s, 20m, 1h or seconds (exit 124)',
  durationOption,
);

export const pullRequestOption = checked(
  '--pr <n|url>',
  'which of the session’s pull requests (its number or address); needed when it has several',
  pullRequestPickArg,
);

export const attemptOption = checked(
  '--attempt <k>',
  'of the session group given (or last, after create --attempts): attempt K (1 to 5)',
  intOption(1, 5),
);
