// commander argParsers: a bad value ends the run with exit 2 and commander's one-line message, before
// anything is read or sent.
import { InvalidArgumentError } from 'commander';
import { isUuid } from './session-ref.js';
import { parseDuration } from './duration.js';

export function uuidOption(value: string): string {
  if (!isUuid(value)) throw new InvalidArgumentError('expected a UUID.');
  return value.toLowerCase();
}

/** Repeatable UUID option (--artifact). */
export function uuidListOption(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), uuidOption(value)];
}

export function durationOption(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new InvalidArgumentError(
      'expected a duration such as 90s, 20m, 1h or plain seconds (up to 7 days).',
    );
  return ms;
}

/** An integer option within [min, max]. */
export function intOption(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()))
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    return n;
  };
}
