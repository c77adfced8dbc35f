// `--timeout` values: 90s, 20m, 1h, 1h30m, 1.5m, or plain seconds.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
/** Longest accepted duration: 7 days (also keeps setTimeout within its 32-bit range). */
export const MAX_DURATION_MS = 7 * 86_400_000;

/** Pure: milliseconds for a duration string, or undefined when it is not one (or is 0 or too long). */
export function parseDuration(input: string): number | undefined {
  const text = input.trim().toLowerCase();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) {
    ms = Number(text) * 1000;
  } else {
    PART.lastIndex = 0;
    ms = 0;
    let consumed = 0;
    let match: RegExpExecArray | null;
    while ((match = PART.exec(text)) !== null) {
      ms += Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? Number.NaN);
      consumed = PART.lastIndex;
    }
    if (consumed !== text.length) return undefined;
  }
  ms = Math.round(ms);
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_DURATION_MS) return undefined;
  return ms;
}

/** Pure: a short human form, e.g. 1h20m, 90s, 250ms. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  let s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}
