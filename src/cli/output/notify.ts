// --notify and the `notify` setting: when a wait ends, the bell and a desktop notification by escape sequence
// on a terminal, or the setting's program; every command that waits calls notify(), so they mean one thing.
import {
  type ChildEnd,
  type Env,
  type IO,
  notifyHow,
  runBounded,
  type SettingName,
  type Settings,
} from '../../core/index.js';
import { escapeForLine, flatten, errorMessage } from '../../util/text.js';
import type { Logger, Stderr } from './stderr.js';

/** What a notification says ("claude replied: …", made safe here); `result`: the notify program's stdin. */
export type Notification = { title: string; body: string; result?: unknown };

/** Pure: which notification escape the terminal named by the environment shows (OSC 9: iTerm2, WezTerm,
 * Ghostty, kitty; OSC 777: foot, VTE, urxvt). Inside tmux or screen the outer terminal is unknown (and the
 * sequence would need a passthrough the user may not allow): the bell alone, which both forward. */
export function notificationEscape(env: Env): 'osc9' | 'osc777' | undefined {
  if (env.TMUX || env.STY || /^(screen|tmux)/.test(env.TERM ?? '')) return undefined;
  if (['iTerm.app', 'WezTerm', 'ghostty'].includes(env.TERM_PROGRAM ?? '')) return 'osc9';
  const term = env.TERM ?? '';
  if (term === 'xterm-kitty' || env.KITTY_WINDOW_ID) return 'osc9';
  if (term.startsWith('foot') || term.startsWith('rxvt-unicode') || env.VTE_VERSION) return 'osc777';
  return undefined;
}

/** One line of plain text that cannot end or split the escape sequence it goes into (nor hold bidi controls). */
function field(text: string, max: number): string {
  return flatten(text.replaceAll(';', ',').replace(/[\u202a-\u202e\u2066-\u2069]/g, ' '), max);
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

export interface NotifyTarget {
  io: Pick<IO, 'env' | 'tuning'>;
  caps: { stderrIsTTY: boolean };
  stderr: Stderr;
  log: Pick<Logger, 'warn'>;
  settings(need?: readonly SettingName[]): Promise<Pick<Settings, 'notify'>>;
}

/** As `flag` (--notify, --no-notify, neither) and the setting say: the escape on stderr (or `write`, where the
 * caller owns the terminal: chat), or the program. --quiet does not silence it. Never throws: one warning. */
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
    ctx.log.warn(`no notification: ${errorMessage(err)}`);
    return;
  }
  if (how.kind === 'terminal' && ctx.caps.stderrIsTTY) write(notificationBytes(ctx.io.env, n));
  if (how.kind !== 'program') return;
  const [file = '', ...args] = how.argv;
  const timeoutMs = ctx.io.tuning?.notifyTimeoutMs ?? 10_000;
  const input = `${JSON.stringify(n.result ?? { title: n.title, body: n.body })}\n`;
  // No shell; its output goes nowhere near stdout, the run's data, but for the first line of its stderr.
  const end = await runBounded(file, args, { env: ctx.io.env, input, timeoutMs, read: 'stderr', max: 2000 });
  if (end.kind === 'exit' && end.code === 0) return;
  const why = programFailure(end, timeoutMs);
  ctx.log.warn(`the notify program ${escapeForLine(file)} failed: ${escapeForLine(why)}`);
}

/** Why the program failed: not found, timed out, the exit code or signal, the first line it wrote on stderr. */
function programFailure(end: ChildEnd, timeoutMs: number): string {
  if (end.kind === 'error') return end.error.code === 'ENOENT' ? 'it was not found' : end.error.message;
  if (end.kind === 'timeout') return `it did not finish within ${timeoutMs / 1000} s and was stopped`;
  const said = end.text.trim().split('\n')[0];
  const how =
    end.code === null ? `it was killed by ${end.signal ?? 'a signal'}` : `it exited with ${end.code}`;
  return said ? `${how}: ${said}` : how;
}
