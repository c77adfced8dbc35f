// The arguments and options several commands share, declared once so their help reads the same everywhere.
import { Argument, Option } from 'commander';
import { durationOption, sessionArgument } from './option-values.js';
import { threadOptionArg } from '../../input/wait-ref.js';

/** What a `<session>` argument accepts. */
export const SESSION_ARG = 'session id, address (…/sessions/<id>), or "last"';

/** `<session>`, required. */
export function sessionArg(): Argument {
  return new Argument('<session>', SESSION_ARG).argParser(sessionArgument);
}

/**
 * `[session]`: where a prompt can fill the session in, the argument is optional to commander; a terminal
 * offers the sessions of `agents ls` to choose from, a script still gets the usage error
 * (src/cli/input/pick-session.ts).
 */
export function sessionOrPickArg(): Argument {
  return new Argument(
    '[session]',
    `${SESSION_ARG}; at a terminal, chosen from \`agents ls\` when left out`,
  ).argParser(sessionArgument);
}

/** show and tail: `--thread`, its session part checked against `<session>` by input/wait-ref.ts. */
export function threadOption(): Option {
  return new Option(
    '--thread <thread>',
    'only this thread: its id, or <session>/<thread> as send prints it',
  ).argParser(threadOptionArg);
}

/** show, plan and artifact: `--timeout` over the whole read. */
export function readTimeoutOption(): Option {
  return new Option(
    '--timeout <duration>',
    'bound the whole read, retries included: 90s, 20m, 1h or seconds (exit 124)',
  ).argParser(durationOption);
}
