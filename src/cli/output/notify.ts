// --notify and the `notify` setting: when a wait ends, a bell and a desktop notification where the terminal
// makes one of an escape sequence (OSC 9: iTerm2, WezTerm, Ghostty, kitty; OSC 777: foot, VTE, urxvt; only
// on a terminal, never a pipe), or the setting's program with the turn's result on its stdin (terminal or
// not). create/send --wait, `agents wait`, `tail --until-final` and `agents chat` call notify() the same way,
// so the flags and the setting mean one thing everywhere.
import type { Env, IO } from '../../core/io/io.js';
import type { SettingName, Settings } from '../../core/config/settings.js';
import { notifyHow } from '../../core/config/notify-setting.js';
import { runNotifyProgram } from '../../core/io/notify-program.js';
import { escapeForLine } from '../../util/text.js';
import type { Logger, Stderr } from './stderr.js';

/** What a notification says. Text from the service is made safe here. */
export interface Notification {
  /** Short: "agents". */
  title: string;
  /** One line: "claude replied: Fix the flaky test". */
  body: string;
  /** What --json prints for the turn: the notify program's standard input, as one line of JSON. */
  result?: unknown;
}

/** The desktop notification escape a terminal understands, if any. */
export type NotificationEscape = 'osc9' | 'osc777';

/**
 * Pure: which notification escape the terminal named by the environment shows. Inside tmux or screen the
 * outer terminal is unknown (and the sequence would need a passthrough the user may not allow): the bell
 * alone, which both forward.
 */
export function notificationEscape(env: Env): NotificationEscape | undefined {
  if (env.TMUX || env.STY || /^(screen|tmux)/.test(env.TERM ?? '')) return undefined;
  const program = env.TERM_PROGRAM ?? '';
  if (['iTerm.app', 'WezTerm', 'ghostty'].includes(program)) return 'osc9';
  const term = env.TERM ?? '';
  if (term === 'xterm-kitty' || env.KITTY_WINDOW_ID) return 'osc9';
  if (term.startsWith('foot') || term.startsWith('rxvt-unicode') || env.VTE_VERSION) return 'osc777';
  return undefined;
}

/** One line of plain text that cannot end or split the escape sequence it goes into. */
function field(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, ' ');
  const safe = flat.replace(/;/g, ',').replace(/\s+/g, ' ').trim();
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

/** Pure: the bytes that ring the bell and, where the terminal takes one, raise a desktop notification. */
export function notificationBytes(env: Env, n: Notification): string {
  const kind = notificationEscape(env);
  const title = field(n.title, 60);
  const body = field(n.body, 200);
  const bell = '\u0007';
  if (kind === 'osc9') return `${bell}\u001b]9;${title}: ${body}\u0007`;
  if (kind === 'osc777') return `${bell}\u001b]777;notify;${title};${body}\u0007`;
  return bell;
}

/** What notify needs of the run (a Context has it all). */
export interface NotifyTarget {
  io: Pick<IO, 'env' | 'tuning'>;
  caps: { stderrIsTTY: boolean };
  stderr: Stderr;
  log: Pick<Logger, 'warn'>;
  settings(need?: readonly SettingName[]): Promise<Pick<Settings, 'notify'>>;
}

/**
 * Announces the end of a turn as `flag` (--notify true, --no-notify false, neither undefined) and the
 * `notify` setting say: the bell and escape on stderr when it is a terminal (or through `write`, where the
 * caller owns the terminal: chat), or the setting's program. It was asked for, so --quiet does not silence
 * the bell (it writes no text). Never throws: a bad setting or a failed program is one warning.
 */
export async function notify(
  ctx: NotifyTarget,
  n: Notification,
  flag: boolean | undefined,
  write: (bytes: string) => void = (bytes) => ctx.stderr.write(bytes),
): Promise<void> {
  if (flag === false) return;
  let how;
  try {
    how = notifyHow(flag, (await ctx.settings(['notify'])).notify);
  } catch (err) {
    ctx.log.warn(`no notification: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  if (how.kind === 'terminal') {
    if (ctx.caps.stderrIsTTY) write(notificationBytes(ctx.io.env, n));
    return;
  }
  if (how.kind !== 'program') return;
  const input = `${JSON.stringify(n.result ?? { title: n.title, body: n.body })}\n`;
  const why = await runNotifyProgram(how.argv, input, {
    env: ctx.io.env,
    timeoutMs: ctx.io.tuning?.notifyTimeoutMs,
  });
  if (why !== undefined)
    ctx.log.warn(`the notify program ${escapeForLine(how.argv[0] ?? '')} failed: ${escapeForLine(why)}`);
}
