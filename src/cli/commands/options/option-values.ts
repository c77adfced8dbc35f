// commander argument parsers: a bad value ends the run with exit 2 and one error line while the arguments
// are parsed, before anything is read, loaded or sent.
import { InvalidArgumentError } from 'commander';
import { isUuid } from '../../../util/uuid.js';
import { parseDuration } from '../../../util/duration.js';
import { MAX_TITLE_LENGTH } from '../../../core/index.js';

export function uuidOption(value: string): string {
  if (!isUuid(value)) throw new InvalidArgumentError('expected a UUID.');
  return value.toLowerCase();
}

export function titleOption(value: string): string {
  if (value.trim() === '' || value.length > MAX_TITLE_LENGTH)
    throw new InvalidArgumentError(`expected a title of 1 to ${MAX_TITLE_LENGTH} characters.`);
  return value;
}

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

/** A number from `min` to `max`; `whole`: digits alone. */
function numberOption(min: number, max: number, whole: boolean) {
  const expected = `expected a ${whole ? 'whole number' : 'number'} from ${min} to ${max}.`;
  return (value: string): number => {
    const n = Number(value);
    const ok = whole ? /^\d+$/.test(value.trim()) : value.trim() !== '' && Number.isFinite(n);
    if (!ok || n < min || n > max) throw new InvalidArgumentError(expected);
    return n;
  };
}

export const intOption = (min: number, max: number) => numberOption(min, max, true);
export const decimalOption = (min: number, max: number) => numberOption(min, max, false);

/** The emulator's KEY or KEY:WORKSPACE: printable ASCII without spaces or colons (it goes into a header). */
export function keySpecOption(value: string, previous: string[] = []): string[] {
  if (!/^[!-9;-~]+(:[\w.-]+)?$/.test(value))
    throw new InvalidArgumentError('expected KEY or KEY:WORKSPACE (printable, no spaces).');
  return [...previous, value];
}

/** An address to listen on; an empty one would make the server listen on every interface, dev keys and all. */
export function hostOption(value: string): string {
  if (!/^\S+$/.test(value))
    throw new InvalidArgumentError('expected a host name or address, e.g. 127.0.0.1.');
  return value;
}
