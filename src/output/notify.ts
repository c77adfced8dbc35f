// --notify: when a long wait ends, a bell and a desktop notification where the terminal makes one of an
// escape sequence (OSC 9: iTerm2, WezTerm, Ghostty, kitty; OSC 777: foot, VTE, urxvt). Only on a terminal,
// never a pipe. create/send --wait, `agents wait` and `agents chat` call notify() the same way.
import type { Env } from '../io/io.js';
import type { Stderr } from './stderr.js';

/** What a notification says. Text from the service is made safe here. */
export interface Notification {
  /** Short: "agents". */
  title: string;
  /** One line: "claude replied: Fix the flaky test". */
  body: string;
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
  io: { env: Env };
  caps: { stderrIsTTY: boolean };
  stderr: Stderr;
}

/**
 * Rings the bell and raises the notification on stderr when it is a terminal (around a running spinner);
 * nothing otherwise. It was asked for by --notify, so --quiet does not silence it: it writes no text.
 */
export function notify(ctx: NotifyTarget, n: Notification): void {
  if (!ctx.caps.stderrIsTTY) return;
  ctx.stderr.write(notificationBytes(ctx.io.env, n));
}
