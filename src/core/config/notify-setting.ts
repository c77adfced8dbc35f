// The `notify` setting (AGENTS_NOTIFY, config "notify"): `terminal` (the bell and a desktop notification by
// escape sequence), `off`, or a JSON array naming a program and its arguments (as Codex's notify = [...]).
import { UsageError } from '../errors/cli-error.js';

export type NotifyHow =
  | { kind: 'off' }
  | { kind: 'terminal' }
  /** argv[0] is the program (looked up on PATH), the rest its arguments, each passed as is. */
  | { kind: 'program'; argv: string[] };

const HINT =
  'use terminal, off, or a JSON array naming a program and its arguments: ["notify-send", "agents"]';

/** The setting's value read, or a usage error naming `where` (the value itself is not echoed). */
export function parseNotify(input: string, where = 'notify'): NotifyHow {
  const text = input.trim();
  if (text === 'terminal' || text === 'off') return { kind: text };
  if (!text.startsWith('[')) throw new UsageError(`${where} is not terminal, off or a JSON array`, HINT);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${where} is not valid JSON`, HINT);
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > 64) {
    throw new UsageError(
      `${where} must be an array of 1 to 64 strings: the program, then its arguments`,
      HINT,
    );
  }
  // A NUL cannot be passed to a program; an empty program name cannot be run.
  const ok = (v: unknown, i: number) => typeof v === 'string' && !v.includes('\u0000') && (i > 0 || v !== '');
  if (!value.every(ok))
    throw new UsageError(`${where} must hold strings only, the first a program's name or path`, HINT);
  return { kind: 'program', argv: value as string[] };
}

/** As stored: `terminal`, `off`, or the array as compact JSON. */
export function validateNotify(input: string, where = 'notify'): string {
  const how = parseNotify(input, where);
  return how.kind === 'program' ? JSON.stringify(how.argv) : how.kind;
}

/** --no-notify: off; --notify: the setting, or the terminal's where it is off; no flag: the setting. */
export function notifyHow(flag: boolean | undefined, setting: string | undefined): NotifyHow {
  if (flag === false) return { kind: 'off' };
  const how = setting === undefined ? ({ kind: 'off' } as const) : parseNotify(setting);
  if (flag === true && how.kind === 'off') return { kind: 'terminal' };
  return how;
}
