// Times for a person at a terminal, local and relative (pipes and --json keep the service's ISO text as sent).

/** How a terminal shows times: relative to `now`, in `timeZone` (undefined: the system's). */
export type TimeFormat = { now: number; timeZone?: string };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const formats = new Map<string, Intl.DateTimeFormat>();

function parts(ms: number, timeZone: string | undefined): Record<string, string> {
  const f =
    formats.get(timeZone ?? '') ??
    new Intl.DateTimeFormat('en-GB', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(timeZone !== undefined ? { timeZone } : {}),
    });
  formats.set(timeZone ?? '', f);
  return Object.fromEntries(f.formatToParts(ms).map((p) => [p.type, p.value]));
}

/** Pure: a local clock time ("14:34" today, "23 Nov 14:34" this year, "23 Nov 2025 14:34"), or the text. */
export function localTime(iso: string, f: TimeFormat): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const at = parts(ms, f.timeZone);
  const today = parts(f.now, f.timeZone);
  const clock = `${at.hour}:${at.minute}`;
  if (at.year === today.year && at.month === today.month && at.day === today.day) return clock;
  if (at.year === today.year) return `${at.day} ${at.month} ${clock}`;
  return `${at.day} ${at.month} ${at.year} ${clock}`;
}

/** Pure: how long ago ("just now", "5 min ago", "3 h ago", "2 days ago"); from a week (or ahead), localTime. */
export function relativeTime(iso: string, f: TimeFormat): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const ago = f.now - ms;
  if (ago < -MINUTE || ago >= 7 * DAY) return localTime(iso, f);
  if (ago < 45_000) return 'just now';
  if (ago < HOUR) return `${Math.max(1, Math.round(ago / MINUTE))} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  const days = Math.floor(ago / DAY);
  return days === 1 ? 'yesterday' : `${days} days ago`;
}
