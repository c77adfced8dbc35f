// tail --since, as `kubectl logs --since` takes it: a duration back from now (10m, 2h) or an ISO 8601 time.
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../../../util/duration.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** Pure: the instant (epoch ms) a --since value names, counting a duration back from `now`. */
export function parseSince(value: string, now: number): number | undefined {
  const text = value.trim();
  if (ISO_TIME.test(text)) {
    const at = Date.parse(text.replace(' ', 'T'));
    return Number.isFinite(at) ? at : undefined;
  }
  const ms = parseDuration(text);
  return ms === undefined ? undefined : now - ms;
}

export function sinceOption(value: string): number {
  const at = parseSince(value, Date.now());
  if (at === undefined) {
    throw new InvalidArgumentError(
      'expected a duration such as 10m or 2h (up to 7 days), or an ISO 8601 time such as 2025-06-01T09:00:00Z.',
    );
  }
  return at;
}
